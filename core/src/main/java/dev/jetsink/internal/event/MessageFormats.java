package dev.jetsink.internal.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.PayloadFormat;
import dev.jetsink.internal.config.TargetKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Puts an event into a target's {@link PayloadFormat} (DESIGN.md "Formats"), once, at enqueue:
 * every retry then publishes the same bytes and headers. Events arrive here as the envelope
 * {@link Envelopes} builds; the record or entry is its {@code data}. The event's identity (its
 * content digest, so its msg id), metadata and trace context do not change.
 *
 * <p>CloudEvents attributes of an S3 record follow the CloudEvents AWS S3 adapter:
 * {@code id} = {@code x-amz-request-id.x-amz-id-2} of {@code responseElements}, {@code source} =
 * {@code eventSource.awsRegion.bucket} (the store's own {@code eventSource}, e.g. {@code minio:s3},
 * {@code ceph:s3}), {@code type} = {@code com.amazonaws.s3.} + {@code eventName} (MinIO's
 * {@code s3:} prefix dropped), {@code subject} = the key as AWS writes it, {@code time} =
 * {@code eventTime}. An audit entry's: {@code id} = {@code requestID}, {@code source} =
 * {@code urn:jetsink:audit:} + deployment id or request host, {@code type} =
 * {@code dev.jetsink.audit.} + API name, {@code subject} = bucket/object, {@code time} = the
 * entry's time. Where a value is missing, {@code id} is the hex content digest and the others are
 * left out. Attributes the sender's own CloudEvent came with win over derived ones.
 */
public final class MessageFormats {
    /** {@code datacontenttype} of every event: the record or entry is JSON. */
    public static final String DATA_CONTENT_TYPE = "application/json";
    /** The content type of a structured-mode message. */
    public static final String STRUCTURED_CONTENT_TYPE = "application/cloudevents+json";
    private static final String S3_TYPE_PREFIX = "com.amazonaws.s3.";
    private static final String AUDIT_TYPE_PREFIX = "dev.jetsink.audit.";
    private static final String AUDIT_SOURCE_PREFIX = "urn:jetsink:audit:";
    private static final byte[] RECORDS_OPEN = "{\"Records\":[".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] RECORDS_CLOSE = "]}".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OBJECT_CLOSE = "}".getBytes(StandardCharsets.US_ASCII);

    private MessageFormats() {
    }

    /**
     * {@code event} in {@code format}. An event the one pass wrote is cut from its envelope's
     * bytes with the fields the pass kept ({@link FormatFields}); any other is read back as a tree.
     *
     * @throws IllegalArgumentException when the payload is not an envelope, or the attributes are
     *                                  too long to store
     */
    public static OutboundEvent apply(PayloadFormat format, OutboundEvent event) {
        if (format == PayloadFormat.ENVELOPE) {
            return event;
        }
        TargetKind kind = event.metadata().kind();
        byte[] data;
        FormatFields fields;
        if (event.formatFields().isPresent()) {
            fields = event.formatFields().get();
            data = Arrays.copyOfRange(event.payload(), fields.dataFrom(), fields.dataTo());
            if (format == PayloadFormat.AWS) {
                data = withAwsKey(data, fields);
            }
        } else {
            ObjectNode tree = dataOf(event.payload());
            fields = FormatFields.of(kind, tree);
            data = JsonBody.write(gen -> JsonBody.writeNode(gen, format == PayloadFormat.AWS ? withAwsKey(tree) : tree,
                false));
        }
        return switch (format) {
            case ENVELOPE -> event;
            case AWS -> event.withPayload(join(RECORDS_OPEN, data, RECORDS_CLOSE));
            case CLOUDEVENTS_BINARY -> event.withPayload(data).withCloudEvent(attributes(kind, fields, event));
            case CLOUDEVENTS_STRUCTURED -> event.withPayload(structured(attributes(kind, fields, event), data))
                .withCloudEvent(Map.of());
        };
    }

    /** The record or entry inside an envelope. */
    static ObjectNode dataOf(byte[] envelope) {
        JsonNode root;
        try {
            root = Json.READER.readTree(envelope);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        JsonNode data = root.path("Records").path(0).path("data");
        if (!data.isObject()) {
            throw new IllegalArgumentException("the payload is not an envelope with a record or entry");
        }
        return (ObjectNode) data;
    }

    /** A copy of a record with its key written as AWS writes it. */
    private static ObjectNode withAwsKey(ObjectNode record) {
        ObjectNode copy = record.deepCopy();
        JsonNode object = copy.path("s3").path("object");
        if (object.isObject() && object.path("key").isTextual()) {
            ((ObjectNode) object).put("key", awsKey(FormatFields.of(TargetKind.NOTIFY, record)));
        }
        return copy;
    }

    /** A record's written bytes with its key written as AWS writes it, the key's JSON string replaced where it differs. */
    private static byte[] withAwsKey(byte[] data, FormatFields fields) {
        String key = awsKey(fields);
        if (key.equals(fields.object())) {
            return data;
        }
        byte[] written = JsonBody.write(gen -> gen.writeString(key));
        return join(Arrays.copyOfRange(data, 0, fields.keyFrom()), written,
            Arrays.copyOfRange(data, fields.keyTo(), data.length));
    }

    /** The record's key form-encoded, as AWS, MinIO and RustFS send it (Ceph sends it as stored). */
    private static String awsKey(FormatFields record) {
        KeyEncoding encoding = KeyEncoding.ofSource(record.origin());
        return encoding == KeyEncoding.FORM ? record.object() : ObjectKeys.encode(encoding.decode(record.object()));
    }

    /** The structured-mode message: the attributes, then {@code data} as written. */
    private static byte[] structured(Map<String, String> attributes, byte[] data) {
        byte[] head = JsonBody.write(gen -> {
            gen.writeStartObject();
            for (Map.Entry<String, String> a : attributes.entrySet()) {
                gen.writeStringField(a.getKey(), a.getValue());
            }
            gen.writeFieldName("data");
            gen.writeNumber(0); // a placeholder, cut off below with the closing brace
            gen.writeEndObject();
        });
        return join(Arrays.copyOf(head, head.length - 2), data, OBJECT_CLOSE);
    }

    private static byte[] join(byte[] a, byte[] b, byte[] c) {
        byte[] joined = Arrays.copyOf(a, a.length + b.length + c.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        System.arraycopy(c, 0, joined, a.length + b.length, c.length);
        return joined;
    }

    /** The derived attributes, with the sender's own over them. */
    static Map<String, String> attributes(TargetKind kind, FormatFields data, OutboundEvent event) {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("specversion", CloudEventAttributes.CLOUDEVENTS_VERSION);
        String digestId = HexFormat.of().formatHex(event.contentDigest());
        if (kind == TargetKind.NOTIFY) {
            String requestId = data.requestId();
            String id2 = data.id2();
            a.put("id", requestId.isEmpty() || id2.isEmpty() ? digestId : requestId + "." + id2);
            a.put("source", data.origin() + "." + data.place() + "." + data.bucket());
            String name = data.name();
            a.put("type", S3_TYPE_PREFIX + (name.startsWith("s3:") ? name.substring(3) : name));
            String key = awsKey(data);
            if (!key.isEmpty()) {
                a.put("subject", key);
            }
        } else {
            String requestId = data.requestId();
            a.put("id", requestId.isEmpty() ? digestId : requestId);
            a.put("source", AUDIT_SOURCE_PREFIX + (data.origin().isEmpty() ? data.place() : data.origin()));
            String api = data.name();
            a.put("type", api.isEmpty() ? AUDIT_TYPE_PREFIX + "entry"
                : AUDIT_TYPE_PREFIX + (api.toLowerCase(Locale.ROOT).startsWith("s3:") ? api.substring(3) : api));
            String bucket = data.bucket();
            String object = data.object();
            if (!bucket.isEmpty()) {
                a.put("subject", object.isEmpty() ? bucket : bucket + "/" + object);
            }
        }
        data.time().ifPresent(t -> a.put("time", t));
        a.put("datacontenttype", DATA_CONTENT_TYPE);
        a.putAll(event.cloudEvent());
        a.put("specversion", CloudEventAttributes.CLOUDEVENTS_VERSION);
        return a;
    }
}

package dev.jetsink.internal.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.PayloadFormat;
import dev.jetsink.internal.config.TargetKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

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

    private MessageFormats() {
    }

    /**
     * {@code event} in {@code format}.
     *
     * @throws IllegalArgumentException when the payload is not an envelope, or the attributes are
     *                                  too long to store
     */
    public static OutboundEvent apply(PayloadFormat format, OutboundEvent event) {
        if (format == PayloadFormat.ENVELOPE) {
            return event;
        }
        TargetKind kind = event.metadata().kind();
        ObjectNode data = dataOf(event.payload());
        return switch (format) {
            case ENVELOPE -> event;
            case AWS -> event.withPayload(aws(data));
            case CLOUDEVENTS_BINARY -> event.withPayload(JsonBody.write(gen -> JsonBody.writeNode(gen, data, false)))
                .withCloudEvent(attributes(kind, data, event));
            case CLOUDEVENTS_STRUCTURED -> event.withPayload(structured(attributes(kind, data, event), data))
                .withCloudEvent(Map.of());
        };
    }

    /** The record or entry inside an envelope. */
    private static ObjectNode dataOf(byte[] envelope) {
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

    /** {@code {"Records":[record]}}, the key written as AWS writes it. */
    private static byte[] aws(ObjectNode record) {
        ObjectNode copy = record.deepCopy();
        JsonNode object = copy.path("s3").path("object");
        if (object.isObject() && object.path("key").isTextual()) {
            ((ObjectNode) object).put("key", awsKey(record));
        }
        return JsonBody.write(gen -> {
            gen.writeStartObject();
            gen.writeArrayFieldStart("Records");
            JsonBody.writeNode(gen, copy, false);
            gen.writeEndArray();
            gen.writeEndObject();
        });
    }

    /** The record's key form-encoded, as AWS, MinIO and RustFS send it (Ceph sends it as stored). */
    private static String awsKey(ObjectNode record) {
        String key = record.path("s3").path("object").path("key").asText("");
        KeyEncoding encoding = KeyEncoding.of(record);
        return encoding == KeyEncoding.FORM ? key : ObjectKeys.encode(encoding.decode(key));
    }

    private static byte[] structured(Map<String, String> attributes, ObjectNode data) {
        return JsonBody.write(gen -> {
            gen.writeStartObject();
            for (Map.Entry<String, String> a : attributes.entrySet()) {
                gen.writeStringField(a.getKey(), a.getValue());
            }
            gen.writeFieldName("data");
            JsonBody.writeNode(gen, data, false);
            gen.writeEndObject();
        });
    }

    /** The derived attributes, with the sender's own over them. */
    static Map<String, String> attributes(TargetKind kind, ObjectNode data, OutboundEvent event) {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("specversion", CloudEventAttributes.CLOUDEVENTS_VERSION);
        String digestId = HexFormat.of().formatHex(event.contentDigest());
        if (kind == TargetKind.NOTIFY) {
            String requestId = text(data, "responseElements", "x-amz-request-id");
            String id2 = text(data, "responseElements", "x-amz-id-2");
            a.put("id", requestId.isEmpty() || id2.isEmpty() ? digestId : requestId + "." + id2);
            a.put("source", text(data, "eventSource") + "." + text(data, "awsRegion") + "."
                + text(data, "s3", "bucket", "name"));
            String name = text(data, "eventName");
            a.put("type", S3_TYPE_PREFIX + (name.startsWith("s3:") ? name.substring(3) : name));
            String key = awsKey(data);
            if (!key.isEmpty()) {
                a.put("subject", key);
            }
            time(data.path("eventTime")).ifPresent(t -> a.put("time", t));
        } else {
            String requestId = text(data, "requestID");
            a.put("id", requestId.isEmpty() ? digestId : requestId);
            String origin = text(data, "deploymentid");
            a.put("source", AUDIT_SOURCE_PREFIX + (origin.isEmpty() ? text(data, "requestHost") : origin));
            String api = text(data, "api", "name");
            a.put("type", api.isEmpty() ? AUDIT_TYPE_PREFIX + "entry"
                : AUDIT_TYPE_PREFIX + (api.toLowerCase(Locale.ROOT).startsWith("s3:") ? api.substring(3) : api));
            String bucket = text(data, "api", "bucket");
            String object = text(data, "api", "object");
            if (!bucket.isEmpty()) {
                a.put("subject", object.isEmpty() ? bucket : bucket + "/" + object);
            }
            time(data.path("time")).ifPresent(t -> a.put("time", t));
        }
        a.put("datacontenttype", DATA_CONTENT_TYPE);
        a.putAll(event.cloudEvent());
        a.put("specversion", CloudEventAttributes.CLOUDEVENTS_VERSION);
        return a;
    }

    private static String text(JsonNode node, String... path) {
        JsonNode n = node;
        for (String p : path) {
            n = n.path(p);
        }
        return n.isValueNode() && !n.isNull() ? n.asText() : "";
    }

    /** An RFC 3339 time from a text time (kept as written when valid) or epoch milliseconds (RustFS audit). */
    private static Optional<String> time(JsonNode t) {
        if (t.isIntegralNumber()) {
            return Optional.of(Instant.ofEpochMilli(t.longValue()).toString());
        }
        if (t.isTextual()) {
            try {
                OffsetDateTime.parse(t.textValue());
                return Optional.of(t.textValue());
            } catch (DateTimeParseException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }
}

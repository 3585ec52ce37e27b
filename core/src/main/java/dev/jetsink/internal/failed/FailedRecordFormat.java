package dev.jetsink.internal.failed;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.jetsink.internal.config.TargetKind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON of one failed-record file (DESIGN.md "Failed-events store"). A UTF-8 JSON object,
 * pretty-printed, fields in this order:
 *
 * <table>
 *   <caption>failed-record fields</caption>
 *   <tr><th>field</th><th>JSON type</th><th>meaning</th></tr>
 *   <tr><td>{@code id}</td><td>number</td><td>queue entry sequence number</td></tr>
 *   <tr><td>{@code nats_msg_id}</td><td>string</td><td>{@code Nats-Msg-Id} of every publish</td></tr>
 *   <tr><td>{@code target}</td><td>string</td><td>target display id, e.g. {@code notify primary:nats}</td></tr>
 *   <tr><td>{@code kind}</td><td>string</td><td>{@code notify} or {@code audit}</td></tr>
 *   <tr><td>{@code subject}</td><td>string</td><td>NATS subject published to</td></tr>
 *   <tr><td>{@code bucket}, {@code object}, {@code event_name}</td><td>string</td><td>routing metadata, empty when unknown</td></tr>
 *   <tr><td>{@code queued_at}, {@code failed_at}</td><td>string</td><td>RFC 3339, UTC, milliseconds:
 *       {@code 2026-12-02T10:43:17.123Z}</td></tr>
 *   <tr><td>{@code error_class}</td><td>string</td><td>always {@code terminal}</td></tr>
 *   <tr><td>{@code error_detail}</td><td>string</td><td>fixed vocabulary (DESIGN.md "Classification"), never raw server text</td></tr>
 *   <tr><td>{@code retry_count}</td><td>number</td><td>publish attempts over the entry's lifetime</td></tr>
 *   <tr><td>{@code content_type}</td><td>string</td><td>the object's content type, empty when unknown
 *       (absent in records written before replay existed: read as empty)</td></tr>
 *   <tr><td>{@code replays}</td><td>number</td><td>how often an operator had replayed the event before
 *       this failure (absent before replay existed: read as 0)</td></tr>
 *   <tr><td>{@code cloud_event}</td><td>string</td><td>the CloudEvents attributes the message carried as
 *       {@code ce-} headers, a JSON object as text; absent when it carried none</td></tr>
 *   <tr><td>{@code order_key}</td><td>string</td><td>the object an ordered target kept the event's order by;
 *       absent when the target was not ordered</td></tr>
 *   <tr><td>{@code payload}</td><td>any</td><td>the published JSON itself, byte for byte; only when the
 *       published bytes are not one valid UTF-8 JSON value, a string holding them as UTF-8 text</td></tr>
 * </table>
 *
 * <p>Readers ignore fields they do not know, so later versions may add fields.
 */
final class FailedRecordFormat {
    private static final JsonFactory JSON = new JsonFactory();
    private static final DateTimeFormatter RFC_3339 =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSXXX").withZone(ZoneOffset.UTC);
    private static final List<String> REQUIRED = List.of("id", "nats_msg_id", "target", "kind",
            "subject", "bucket", "object", "event_name", "queued_at", "failed_at", "error_class",
            "error_detail", "retry_count", "payload");

    private FailedRecordFormat() {
    }

    static byte[] encode(FailedRecord r) throws IOException {
        byte[] payload = r.payload();
        ByteArrayOutputStream out = new ByteArrayOutputStream(payload.length + 640);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeNumberField("id", r.id());
            g.writeStringField("nats_msg_id", r.natsMsgId());
            g.writeStringField("target", r.target());
            g.writeStringField("kind", r.kind().label());
            g.writeStringField("subject", r.subject());
            g.writeStringField("bucket", r.bucket());
            g.writeStringField("object", r.object());
            g.writeStringField("event_name", r.eventName());
            g.writeStringField("queued_at", RFC_3339.format(r.queuedAt()));
            g.writeStringField("failed_at", RFC_3339.format(r.failedAt()));
            g.writeStringField("error_class", r.errorClass());
            g.writeStringField("error_detail", r.errorDetail());
            g.writeNumberField("retry_count", r.retryCount());
            g.writeStringField("content_type", r.contentType());
            g.writeNumberField("replays", r.replays());
            if (r.cloudEvent().isPresent()) {
                g.writeStringField("cloud_event", r.cloudEvent().get());
            }
            if (r.orderKey().isPresent()) {
                g.writeStringField("order_key", r.orderKey().get());
            }
            g.writeFieldName("payload");
            Optional<String> json = asJsonText(payload);
            if (json.isPresent()) {
                // Raw, not re-serialised: the file keeps the exact bytes consumers were sent.
                g.writeRawValue(json.get());
            } else {
                g.writeString(new String(payload, StandardCharsets.UTF_8));
            }
            g.writeEndObject();
        }
        out.write('\n');
        return out.toByteArray();
    }

    /** The payload as text when it is exactly one well-formed UTF-8 JSON value. */
    private static Optional<String> asJsonText(byte[] payload) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(payload)).toString();
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() == null) {
                return Optional.empty();
            }
            p.skipChildren();
            return p.nextToken() == null ? Optional.of(text) : Optional.empty();
        } catch (IOException e) {
            // Not JSON: recorded as a string instead; nothing to report.
            return Optional.empty();
        }
    }

    static FailedRecord decode(byte[] file, String source) throws IOException {
        Map<String, Object> fields = new HashMap<>();
        try (JsonParser p = JSON.createParser(file)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("failed record " + source + ": not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("payload")) {
                    fields.put(name, payloadBytes(p, value, file));
                } else if (value.isStructStart()) {
                    p.skipChildren();
                } else if (value != JsonToken.VALUE_NULL) {
                    fields.put(name, p.getText());
                }
            }
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " at " + e.getLocation().offsetDescription();
            throw new IOException("failed record " + source + ": malformed JSON" + where, e);
        }
        List<String> missing = REQUIRED.stream().filter(f -> !fields.containsKey(f)).toList();
        if (!missing.isEmpty()) {
            throw new IOException("failed record " + source + ": missing fields " + missing);
        }
        try {
            return new FailedRecord(
                    Long.parseLong(text(fields, "id")),
                    text(fields, "nats_msg_id"),
                    text(fields, "target"),
                    TargetKind.fromLabel(text(fields, "kind")),
                    text(fields, "subject"),
                    text(fields, "bucket"),
                    text(fields, "object"),
                    text(fields, "event_name"),
                    OffsetDateTime.parse(text(fields, "queued_at")).toInstant(),
                    OffsetDateTime.parse(text(fields, "failed_at")).toInstant(),
                    text(fields, "error_class"),
                    text(fields, "error_detail"),
                    Integer.parseInt(text(fields, "retry_count")),
                    (byte[]) fields.get("payload"),
                    // optional: records written before replay existed have neither
                    fields.containsKey("content_type") ? text(fields, "content_type") : "",
                    fields.containsKey("replays") ? Integer.parseInt(text(fields, "replays")) : 0,
                    // optional: only records of messages with ce- headers have it
                    Optional.ofNullable(text(fields, "cloud_event")),
                    Optional.ofNullable(text(fields, "order_key")));
        } catch (IllegalArgumentException | DateTimeParseException e) {
            // NumberFormatException is an IllegalArgumentException, as are the record's checks.
            throw new IOException("failed record " + source + ": bad field value: " + e.getMessage(), e);
        }
    }

    private static String text(Map<String, Object> fields, String name) {
        return (String) fields.get(name);
    }

    /** Recovers the published bytes: the raw JSON slice of the file, or a string's UTF-8. */
    private static byte[] payloadBytes(JsonParser p, JsonToken value, byte[] file) throws IOException {
        if (value == JsonToken.VALUE_STRING) {
            return p.getText().getBytes(StandardCharsets.UTF_8);
        }
        if (value.isStructStart()) {
            long start = p.currentTokenLocation().getByteOffset();
            p.skipChildren();
            long end = p.currentLocation().getByteOffset();
            return Arrays.copyOfRange(file, (int) start, (int) end);
        }
        return p.getText().getBytes(StandardCharsets.UTF_8);
    }
}

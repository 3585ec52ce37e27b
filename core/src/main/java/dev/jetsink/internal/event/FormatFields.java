package dev.jetsink.internal.event;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.internal.config.TargetKind;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * What the opt-in formats ({@link MessageFormats}) read of one record or entry: its fields as
 * text, {@code ""} where absent, and — when {@link OnePass} wrote the envelope — where the
 * record's {@code data} and its key's value lie in it, so a format is cut from the envelope's
 * bytes instead of parsing them again. The pass keeps these as they go by; a value it cannot turn
 * into the text the tree path would give (a number where a string is expected) leaves the event
 * without fields, and the format is then built from a tree.
 *
 * <p>Notify: {@code requestId}/{@code id2} = {@code responseElements.x-amz-request-id}/{@code
 * x-amz-id-2}, {@code origin} = {@code eventSource}, {@code place} = {@code awsRegion},
 * {@code bucket} = {@code s3.bucket.name}, {@code name} = {@code eventName}, {@code object} =
 * {@code s3.object.key} as written, {@code time} = {@code eventTime}. Audit: {@code requestId} =
 * {@code requestID}, {@code origin} = {@code deploymentid}, {@code place} = {@code requestHost},
 * {@code bucket}/{@code name}/{@code object} = {@code api.bucket}/{@code api.name}/{@code
 * api.object}, {@code time} = {@code time}.
 *
 * @param dataFrom start of {@code data} in the envelope, or -1 when the fields came from a tree
 * @param keyFrom  start of the key's JSON string within {@code data} (notify), else -1
 */
record FormatFields(int dataFrom, int dataTo, int keyFrom, int keyTo, String requestId, String id2, String origin,
                    String place, String bucket, String name, String object, Optional<String> time) {

    /** The fields of a record or entry read as a tree. */
    static FormatFields of(TargetKind kind, JsonNode data) {
        if (kind == TargetKind.NOTIFY) {
            return new FormatFields(-1, -1, -1, -1, text(data, "responseElements", "x-amz-request-id"),
                text(data, "responseElements", "x-amz-id-2"), text(data, "eventSource"), text(data, "awsRegion"),
                text(data, "s3", "bucket", "name"), text(data, "eventName"), text(data, "s3", "object", "key"),
                time(data.path("eventTime")));
        }
        return new FormatFields(-1, -1, -1, -1, text(data, "requestID"), "", text(data, "deploymentid"),
            text(data, "requestHost"), text(data, "api", "bucket"), text(data, "api", "name"),
            text(data, "api", "object"), time(data.path("time")));
    }

    boolean inEnvelope() {
        return dataFrom >= 0;
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
            return Optional.of(epochMillis(t.longValue()));
        }
        return t.isTextual() ? time(t.textValue()) : Optional.empty();
    }

    /** A time written as text: itself when it is RFC 3339, else none. */
    static Optional<String> time(String text) {
        try {
            OffsetDateTime.parse(text);
            return Optional.of(text);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** A time written as epoch milliseconds, in RFC 3339. */
    static String epochMillis(long millis) {
        return Instant.ofEpochMilli(millis).toString();
    }
}

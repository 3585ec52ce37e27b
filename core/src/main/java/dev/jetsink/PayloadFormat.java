package dev.jetsink;

import java.util.Locale;
import java.util.Optional;

/**
 * What a target's messages look like on NATS (the {@code format} setting). Msg ids, subjects and
 * the {@code Jetsink-*} headers are the same in every format: only the payload, its
 * {@code Content-Type} and the CloudEvents attributes differ.
 */
public enum PayloadFormat {
    /**
     * The RustFS-compatible envelope {@code {"EventName","Key","Records":[{"object_name",
     * "bucket_name","event_name","data"}]}}. The default.
     */
    ENVELOPE("envelope"),
    /**
     * The S3 notification document as AWS and MinIO send it, {@code {"Records":[record]}}, one
     * record per message, the object key URL-encoded as AWS encodes it. Notify targets only.
     */
    AWS("aws"),
    /**
     * A CloudEvent in binary mode: the record (or audit entry) is the payload, each attribute a
     * {@code ce-} header.
     */
    CLOUDEVENTS_BINARY("cloudevents-binary"),
    /**
     * A CloudEvent in structured mode: the whole event as JSON,
     * {@code Content-Type: application/cloudevents+json}.
     */
    CLOUDEVENTS_STRUCTURED("cloudevents-structured");

    private final String label;

    PayloadFormat(String label) {
        this.label = label;
    }

    /**
     * The name the configuration uses, e.g. {@code cloudevents-binary}.
     *
     * @return the label
     */
    public String label() {
        return label;
    }

    /**
     * Whether messages in this format are CloudEvents.
     *
     * @return true for both CloudEvents modes
     */
    public boolean cloudEvents() {
        return this == CLOUDEVENTS_BINARY || this == CLOUDEVENTS_STRUCTURED;
    }

    /**
     * The format a configuration value names, ignoring case and surrounding spaces.
     *
     * @param value e.g. {@code aws}
     * @return the format, or empty for anything else
     */
    public static Optional<PayloadFormat> parse(String value) {
        for (PayloadFormat f : values()) {
            if (f.label.equalsIgnoreCase(value.trim())) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }
}

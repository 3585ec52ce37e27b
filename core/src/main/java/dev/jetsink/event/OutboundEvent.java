package dev.jetsink.event;

import java.util.Objects;

/**
 * An event ready to queue: its metadata, the exact bytes every publish of it will carry (the §3.2
 * envelope, built once at enqueue), and its content digest: the SHA-256 of the record's or entry's
 * canonical form ({@link CanonicalJson}), from which each target derives a stable
 * {@code Nats-Msg-Id} (issue #12).
 */
public record OutboundEvent(EventMetadata metadata, byte[] payload, byte[] contentDigest) {
    public OutboundEvent {
        Objects.requireNonNull(metadata, "metadata");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(contentDigest, "contentDigest");
        if (contentDigest.length != 32) {
            throw new IllegalArgumentException("contentDigest must be a SHA-256 (32 bytes)");
        }
    }

    /** An event whose identity is its payload bytes (for payloads built outside {@link Envelopes}). */
    public OutboundEvent(EventMetadata metadata, byte[] payload) {
        this(metadata, payload, CanonicalJson.sha256().digest(Objects.requireNonNull(payload, "payload")));
    }
}

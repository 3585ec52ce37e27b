package dev.jetsink.event;

import java.util.Objects;

/**
 * An event ready to queue: its metadata and the exact bytes every publish of it will carry
 * (the §3.2 envelope, built once at enqueue).
 */
public record OutboundEvent(EventMetadata metadata, byte[] payload) {
    public OutboundEvent {
        Objects.requireNonNull(metadata, "metadata");
        Objects.requireNonNull(payload, "payload");
    }
}

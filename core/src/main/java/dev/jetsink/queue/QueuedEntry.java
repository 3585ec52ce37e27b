package dev.jetsink.queue;

import dev.jetsink.event.EventMetadata;
import java.time.Instant;
import java.util.Objects;

/**
 * One live entry of a {@link QueueStore}, without its payload (read it with
 * {@link QueueStore#read(QueuedEntry)}).
 *
 * @param seq           the entry's sequence number: unique in its queue and only growing
 * @param msgId         the {@code Nats-Msg-Id} minted at enqueue (a UUIDv7 string); every retry reuses it
 * @param queuedAt      when the entry was durably queued
 * @param metadata      kind, bucket, object, event name and content type
 * @param payloadLength size of the stored payload in bytes
 */
public record QueuedEntry(long seq, String msgId, Instant queuedAt, EventMetadata metadata, int payloadLength) {
    public QueuedEntry {
        Objects.requireNonNull(msgId, "msgId");
        Objects.requireNonNull(queuedAt, "queuedAt");
        Objects.requireNonNull(metadata, "metadata");
    }
}

package dev.jetsink.queue;

import dev.jetsink.event.EventMetadata;
import java.time.Instant;
import java.util.Objects;

/**
 * One live entry of a {@link QueueStore}, without its payload (read it with
 * {@link QueueStore#read(QueuedEntry)}).
 *
 * @param seq           the entry's sequence number: unique in its queue and only growing
 * @param msgId         the {@code Nats-Msg-Id} fixed at enqueue (content-derived, minted, or the
 *                      caller's); every retry and replay reuses it
 * @param queuedAt      when the entry was durably queued
 * @param metadata      kind, bucket, object, event name and content type
 * @param payloadLength size of the stored payload in bytes
 * @param replays       how often an operator replayed this event from the failed store (0 for
 *                      an event as it arrived)
 */
public record QueuedEntry(long seq, String msgId, Instant queuedAt, EventMetadata metadata, int payloadLength,
                          int replays) {
    public QueuedEntry {
        Objects.requireNonNull(msgId, "msgId");
        Objects.requireNonNull(queuedAt, "queuedAt");
        Objects.requireNonNull(metadata, "metadata");
        if (replays < 0) {
            throw new IllegalArgumentException("replays must not be negative: " + replays);
        }
    }

    /** An entry never replayed. */
    public QueuedEntry(long seq, String msgId, Instant queuedAt, EventMetadata metadata, int payloadLength) {
        this(seq, msgId, queuedAt, metadata, payloadLength, 0);
    }
}

package dev.jetsink.internal.queue;

import dev.jetsink.internal.event.EventMetadata;
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
 * @param attributes    replay count, the entry's own subject and its trace context
 */
public record QueuedEntry(long seq, String msgId, Instant queuedAt, EventMetadata metadata, int payloadLength,
                          EntryAttributes attributes) {
    public QueuedEntry {
        Objects.requireNonNull(msgId, "msgId");
        Objects.requireNonNull(queuedAt, "queuedAt");
        Objects.requireNonNull(metadata, "metadata");
        Objects.requireNonNull(attributes, "attributes");
    }

    /** An entry with only a replay count. */
    public QueuedEntry(long seq, String msgId, Instant queuedAt, EventMetadata metadata, int payloadLength, int replays) {
        this(seq, msgId, queuedAt, metadata, payloadLength, EntryAttributes.replays(replays));
    }

    /** An entry never replayed. */
    public QueuedEntry(long seq, String msgId, Instant queuedAt, EventMetadata metadata, int payloadLength) {
        this(seq, msgId, queuedAt, metadata, payloadLength, EntryAttributes.NONE);
    }

    /** How often an operator replayed this event from the failed store (0 as it arrived). */
    public int replays() {
        return attributes.replays();
    }
}

package dev.jetsink.internal.queue;

import dev.jetsink.internal.event.EventMetadata;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Capacity held on a queue for an all-or-nothing ingest (DESIGN.md "Daemon"): a request reserves
 * room on every addressed target before it appends anything. Each {@link #append} uses one reserved
 * slot; {@link #close} gives back the slots not used.
 */
public interface Reservation extends AutoCloseable {
    /**
     * Appends one entry using a reserved slot; same contract as {@link QueueStore#append}.
     *
     * @throws IllegalStateException when every reserved slot is used or the reservation is closed
     */
    default CompletableFuture<QueuedEntry> append(EventMetadata metadata, byte[] payload) {
        return append(metadata, payload, Optional.empty());
    }

    /**
     * Appends one entry with {@code msgId} as its {@code Nats-Msg-Id} (minted by the queue when
     * empty); same contract as {@link QueueStore#append}.
     */
    CompletableFuture<QueuedEntry> append(EventMetadata metadata, byte[] payload, Optional<String> msgId);

    /** Like {@link #append(EventMetadata, byte[], Optional)}, storing {@code attributes} with the entry. */
    CompletableFuture<QueuedEntry> append(EventMetadata metadata, byte[] payload, Optional<String> msgId,
                                          EntryAttributes attributes);

    /** Slots not yet used. */
    int remaining();

    /** Releases the unused slots. Idempotent. */
    @Override
    void close();
}

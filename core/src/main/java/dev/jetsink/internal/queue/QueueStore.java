package dev.jetsink.internal.queue;

import dev.jetsink.internal.event.EventMetadata;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A target's durable local queue (store-and-forward, DESIGN.md "Queue"): what the dispatcher needs
 * and nothing more. Thread-safe.
 */
public interface QueueStore extends AutoCloseable {

    /**
     * Checks that an entry with {@code metadata} can be stored, before anything is appended: the
     * record stores bucket, object, event name and content type with 16-bit lengths. (The payload
     * is bounded too; {@link #append} checks the whole record.)
     *
     * @throws IllegalArgumentException naming what is too long
     */
    static void checkStorable(EventMetadata metadata) {
        RecordCodec.metadataBytes(metadata);
    }

    /**
     * Durably appends one entry. Mints its {@code Nats-Msg-Id} and queued-at time. The future
     * completes only after the fsync that covers the record; it fails with
     * {@link dev.jetsink.QueueFullException} at {@code queue_limit} or {@link dev.jetsink.QueueStoreException} when the
     * write or fsync failed (never a late success).
     *
     * <p>When the queue is idle the write and fsync run on the calling thread, so this call may
     * block for one fsync and return an already completed future; under contention the writer
     * thread, or another producer that wrote the batch, completes it once it released the queue's
     * lock. Dependent stages attached without an executor may therefore run on the writer thread
     * and hold up the next batch: keep them short, or hand over to another executor as the sink
     * does.
     *
     * @throws IllegalArgumentException when the entry is too large to be stored and read back
     *                                  (a metadata field over 65 535 bytes or a record over 64 MiB)
     */
    default CompletableFuture<QueuedEntry> append(EventMetadata metadata, byte[] payload) {
        return append(metadata, payload, Optional.empty());
    }

    /**
     * Like {@link #append(EventMetadata, byte[])}, with {@code msgId} as the entry's
     * {@code Nats-Msg-Id} instead of a minted one when present (a content-derived id,
     * DESIGN.md "Msg ids"). It is stored with the entry, so every retry and replay keeps
     * it.
     */
    default CompletableFuture<QueuedEntry> append(EventMetadata metadata, byte[] payload, Optional<String> msgId) {
        return append(metadata, payload, msgId, EntryAttributes.NONE);
    }

    /**
     * Like {@link #append(EventMetadata, byte[], Optional)} for an event an operator replays from
     * the failed store, or with a subject resolved from a template or a trace context:
     * {@code attributes} are stored with the entry and come back in
     * {@link QueuedEntry#attributes()}; a replayed record that fails again says how often it was tried.
     */
    CompletableFuture<QueuedEntry> append(EventMetadata metadata, byte[] payload, Optional<String> msgId,
                                          EntryAttributes attributes);

    /**
     * Reserves room for {@code n} appends so a multi-target ingest is all-or-nothing.
     *
     * @throws dev.jetsink.QueueFullException when live + reserved + {@code n} would exceed {@code queue_limit}
     */
    Reservation reserve(int n);

    /**
     * Checks that {@code n} more entries would be taken now, reserving nothing: the cheap answer a
     * caller gives before it has read what it would append.
     *
     * @throws dev.jetsink.QueueFullException when live + reserved + {@code n} would exceed {@code queue_limit}
     * @throws dev.jetsink.QueueStoreException when the queue is closed or not open
     */
    void checkRoom(int n);

    /**
     * Up to {@code max} live entries with a sequence above {@code afterSeq}, oldest first, without
     * payloads. Page through the queue by passing the last returned sequence. An entry whose record
     * went bad on disk after the queue was opened is counted in {@link #corruptRecords()} and left
     * out (it stays queued); a page shorter than {@code max} means there is nothing further.
     */
    List<QueuedEntry> live(long afterSeq, int max);

    /**
     * The payload of a live entry, CRC-verified.
     *
     * @throws dev.jetsink.QueueStoreException when the record cannot be read or fails its checksum
     * @throws java.util.NoSuchElementException when the entry is no longer live
     */
    byte[] read(QueuedEntry entry);

    /**
     * Marks an entry resolved (acknowledged, or moved to the failed store). Idempotent; the bit is
     * forced within 100 ms and on close.
     *
     * @return whether the entry was live
     */
    boolean resolve(long seq);

    /**
     * Runs {@code hook} each time the queue is about to make resolutions durable, after it has taken
     * them and before it writes them: what the hook forces to disk is durable before any resolution
     * made before the hook ran. One hook; a later call replaces it.
     */
    default void beforeResolutionsForced(Runnable hook) {
    }

    /** Number of live (unresolved, durably queued) entries. */
    long liveCount();

    /** Bytes the queue's segment files occupy on disk. */
    long bytes();

    /** Queued-at time of the oldest live entry. */
    Optional<Instant> oldestQueuedAt();

    /** Damaged records found and skipped since this store was opened (recovery and reads). */
    long corruptRecords();

    /**
     * Sidecars found unreadable or failing their checksum since this store was opened, each taken
     * as "nothing resolved" (its entries delivered again, never hidden).
     */
    default long sidecarRebuilds() {
        return 0;
    }

    /**
     * When the queue's own upkeep last failed to write (a resolution sidecar, the high-water mark):
     * an unwritable directory shows here even while no event is appended. 0 when never.
     */
    default long lastUpkeepWriteFailureMillis() {
        return 0;
    }

    /**
     * Segments whose last write had stopped short (a crash, a full disk), cut back to their last
     * whole record at open since this store was opened. Not damage: the cut bytes were never
     * acknowledged.
     */
    default long tornTails() {
        return 0;
    }

    /** Flushes resolution bits, stops the writer, releases the lock. Idempotent. */
    @Override
    void close();
}

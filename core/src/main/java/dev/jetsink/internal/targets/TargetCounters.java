package dev.jetsink.internal.targets;

import dev.jetsink.internal.publish.SubjectRefusals;
import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.LifecycleListener;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one target counts since it was opened (DESIGN.md "Metrics", "Status"): events in, events
 * out, refusals and terminal failures, the last ack and the last error. Fed by the target's intake
 * and, as a lifecycle listener, by its dispatcher. Thread-safe.
 */
public final class TargetCounters implements LifecycleListener {

    /** The last error a publish met, or a queue write, with when. */
    public record LastError(String text, Instant at) {
    }

    private final Clock clock;
    private final long startedMs;
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong failedMessages = new AtomicLong();
    private final AtomicLong newestSeq = new AtomicLong();
    private final AtomicLong replayed = new AtomicLong();
    private final AtomicLong resolved = new AtomicLong();
    private final AtomicLong duplicateAcks = new AtomicLong();
    private final SubjectRefusals subjectRefusals = new SubjectRefusals();
    private volatile long lastAckMs;
    private volatile long lastWriteFailureMs;
    private volatile Optional<LastError> lastError = Optional.empty();

    TargetCounters(Clock clock) {
        this.clock = clock;
        this.startedMs = clock.millis();
    }

    @Override
    public void movedToFailedStore(LifecycleEvent.MovedToFailedStore e) {
        failedMessages.incrementAndGet();
        lastError = Optional.of(new LastError(e.outcome().detail(), clock.instant()));
    }

    @Override
    public void entryResolved(LifecycleEvent.EntryResolved e) {
        resolved.incrementAndGet();
        if (e.duplicate()) {
            duplicateAcks.incrementAndGet();
        }
        lastAckMs = clock.millis();
    }

    @Override
    public void attemptFailed(LifecycleEvent.AttemptFailed e) {
        lastError = Optional.of(new LastError(e.outcome().detail(), clock.instant()));
    }

    /** One event taken: durably queued as {@code entry}, or published directly when null. */
    void accepted(QueuedEntry entry) {
        accepted.incrementAndGet();
        if (entry != null) {
            newestSeq.accumulateAndGet(entry.seq(), Math::max);
        }
    }

    void replayed(QueuedEntry entry) {
        replayed.incrementAndGet();
        newestSeq.accumulateAndGet(entry.seq(), Math::max);
    }

    /**
     * Events this target refused at ingest (queue full, a failed write or fsync, init failed, a
     * failed direct publish): the sender was told they were not taken (DESIGN.md "Ingest
     * rejections"), so they count in {@code failed_messages}.
     */
    void refused(int events) {
        failedMessages.addAndGet(events);
    }

    /** An append the queue could not make durable: the target is degraded for a while. */
    void writeFailed(int events, Throwable cause) {
        refused(events);
        lastWriteFailureMs = clock.millis();
        lastError = Optional.of(new LastError("queue write failed: " + cause.getClass().getSimpleName(), clock.instant()));
    }

    long newestSeq() {
        return newestSeq.get();
    }

    long lastWriteFailureMillis() {
        return lastWriteFailureMs;
    }

    long lastAckMillis() {
        return lastAckMs;
    }

    Optional<LastError> lastErrorRecorded() {
        return lastError;
    }

    /** When the target was opened (its counters start there), in epoch milliseconds of its clock. */
    public long startedMillis() {
        return startedMs;
    }

    /** Events accepted into this target ({@code total_messages}). */
    public long acceptedCount() {
        return accepted.get();
    }

    /** Terminal moves plus ingest rejections ({@code failed_messages}). */
    public long failedCount() {
        return failedMessages.get();
    }

    /** Entries acknowledged by the server since start (duplicates included): events out. */
    public long resolvedCount() {
        return resolved.get();
    }

    /** How refusals of an ordered target's expected subject sequence were answered (JetStream, subject per object). */
    public SubjectRefusals subjectRefusals() {
        return subjectRefusals;
    }

    /** Acks saying the stream already held the msg id, since start. */
    public long duplicateAckCount() {
        return duplicateAcks.get();
    }

    /** Failed records replayed into the queue since start ({@code jetsink_failed_replayed_total}). */
    public long replayedCount() {
        return replayed.get();
    }

    /** When the last publish ack arrived; empty before the first. */
    public Optional<Instant> lastAck() {
        long ms = lastAckMs;
        return ms == 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(ms));
    }
}

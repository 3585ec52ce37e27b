package dev.jetsink.internal.delivery;

import dev.jetsink.internal.queue.QueuedEntry;
import java.time.Instant;

/** A live queue entry the dispatcher is working on: the entry and its retry state. */
final class PendingEntry {

    private final QueuedEntry entry;
    private final RetryState retry;
    private Instant notBefore = Instant.MIN;
    private long attemptId;

    PendingEntry(QueuedEntry entry, RetryState retry) {
        this.entry = entry;
        this.retry = retry;
    }

    QueuedEntry entry() {
        return entry;
    }

    long seq() {
        return entry.seq();
    }

    RetryState retry() {
        return retry;
    }

    Instant notBefore() {
        return notBefore;
    }

    void notBefore(Instant at) {
        this.notBefore = at;
    }

    long attemptId() {
        return attemptId;
    }

    void attemptId(long id) {
        this.attemptId = id;
    }
}

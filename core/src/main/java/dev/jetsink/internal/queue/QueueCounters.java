package dev.jetsink.internal.queue;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/** What a queue found wrong on its disk, counted for metrics and status. */
final class QueueCounters {

    private final Clock clock;
    private final AtomicLong corrupt = new AtomicLong();
    private final AtomicLong sidecarRebuilds = new AtomicLong();
    private final AtomicLong tornTails = new AtomicLong();
    private volatile long lastUpkeepWriteFailureMs;

    QueueCounters(Clock clock) {
        this.clock = clock;
    }

    /** Damaged records: skipped at recovery or found bad on a later read. */
    void corrupt(long n) {
        corrupt.addAndGet(n);
    }

    /** A sidecar was missing its checksum or had another size, so its entries are delivered again. */
    void sidecarRebuilt() {
        sidecarRebuilds.incrementAndGet();
    }

    /** A segment's tail held half a record, cut at open. */
    void tornTail() {
        tornTails.incrementAndGet();
    }

    /** The maintenance thread failed to write (a sidecar or a compaction), now. */
    void upkeepWriteFailed() {
        lastUpkeepWriteFailureMs = clock.millis();
    }

    long corruptRecords() {
        return corrupt.get();
    }

    long sidecarRebuilds() {
        return sidecarRebuilds.get();
    }

    long tornTails() {
        return tornTails.get();
    }

    long lastUpkeepWriteFailureMillis() {
        return lastUpkeepWriteFailureMs;
    }
}

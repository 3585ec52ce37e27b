package dev.jetsink.internal.queue;

import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The two threads of an open queue: the group-commit writer and the maintenance thread (sidecar
 * flushes every 50 ms, compaction, deletion of resolved segments). Both are daemon threads.
 */
final class QueueWorkers {
    private static final long UPKEEP_INTERVAL_MS = 50;

    private final Thread writerThread;
    private final ScheduledExecutorService maintenance;
    private final SegmentMaintenance upkeep;

    QueueWorkers(Path dir, GroupCommitWriter writer, SegmentMaintenance upkeep) {
        this.upkeep = upkeep;
        this.writerThread = new Thread(writer, "jetsink-queue-writer-" + dir.getFileName());
        writerThread.setDaemon(true);
        writerThread.start();
        this.maintenance = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "jetsink-queue-upkeep-" + dir.getFileName());
            t.setDaemon(true);
            return t;
        });
        maintenance.scheduleWithFixedDelay(upkeep::run, UPKEEP_INTERVAL_MS, UPKEEP_INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * After the writer was sent its stop: waits for both threads to end, then flushes the sidecars a
     * last time. An interrupt does not cut the waits short; returns whether one arrived.
     */
    boolean awaitStopped() {
        boolean interrupted = Uninterruptibly.await(() -> {
            writerThread.join();
            return true;
        });
        maintenance.shutdown();
        interrupted |= Uninterruptibly.await(() -> maintenance.awaitTermination(1, TimeUnit.MINUTES));
        upkeep.run();
        return interrupted;
    }

    void beforeResolutionsForced(Runnable hook) {
        upkeep.beforeResolutionsForced(hook);
    }
}

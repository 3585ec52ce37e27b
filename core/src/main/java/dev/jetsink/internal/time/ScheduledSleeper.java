package dev.jetsink.internal.time;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The real {@link Sleeper}: each sleep is a task on a shared {@link ScheduledExecutorService}, so
 * any number of targets can back off without holding a thread each. The executor is owned by the
 * caller and is not shut down here; give it a {@link java.util.concurrent.ScheduledThreadPoolExecutor}
 * with {@code setRemoveOnCancelPolicy(true)} so the timer of a woken sleep leaves its queue at once.
 */
public final class ScheduledSleeper implements Sleeper {

    private final ScheduledExecutorService scheduler;
    private final Set<CompletableFuture<SleepEnd>> pending = ConcurrentHashMap.newKeySet();

    public ScheduledSleeper(ScheduledExecutorService scheduler) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    @Override
    public CompletableFuture<SleepEnd> sleep(Duration duration) {
        CompletableFuture<SleepEnd> sleep = new CompletableFuture<>();
        if (duration.isZero() || duration.isNegative()) {
            sleep.complete(SleepEnd.ELAPSED);
            return sleep;
        }
        pending.add(sleep);
        ScheduledFuture<?> timer = scheduler.schedule(
                () -> sleep.complete(SleepEnd.ELAPSED), duration.toNanos(), TimeUnit.NANOSECONDS);
        // Whatever ends the sleep (time, a wake, a cancel by the caller) also drops the timer, so
        // abandoned sleeps do not pile up in the scheduler's queue.
        sleep.whenComplete((end, failure) -> {
            pending.remove(sleep);
            timer.cancel(false);
        });
        return sleep;
    }

    @Override
    public void wakeAll() {
        for (CompletableFuture<SleepEnd> sleep : pending) {
            sleep.complete(SleepEnd.WOKEN);
        }
    }

    /** Number of sleeps not yet ended; for diagnostics and tests. */
    public int pendingCount() {
        return pending.size();
    }
}

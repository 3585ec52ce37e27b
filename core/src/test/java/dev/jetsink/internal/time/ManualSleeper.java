package dev.jetsink.internal.time;

import dev.jetsink.testkit.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link Sleeper} for tests: sleeps end only when the test advances its {@link FakeClock} past
 * their due time or wakes them, so no test waits through a real backoff (DESIGN.md "Delivery").
 *
 * <p>The usual pattern: act, then {@link #awaitPending(Duration, Duration)} until the code under
 * test is sleeping for the expected backoff, then {@link #advance(Duration)} to release it.
 */
public final class ManualSleeper implements Sleeper {

    private final FakeClock clock;
    private final List<PendingSleep> pending = new ArrayList<>();

    public ManualSleeper(FakeClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The clock whose time this sleeper follows. */
    public FakeClock clock() {
        return clock;
    }

    @Override
    public synchronized CompletableFuture<SleepEnd> sleep(Duration duration) {
        CompletableFuture<SleepEnd> sleep = new CompletableFuture<>();
        if (duration.isZero() || duration.isNegative()) {
            sleep.complete(SleepEnd.ELAPSED);
            return sleep;
        }
        PendingSleep entry = new PendingSleep(duration, clock.instant().plus(duration), sleep);
        pending.add(entry);
        sleep.whenComplete((end, failure) -> forget(entry));
        notifyAll();
        return sleep;
    }

    @Override
    public void wakeAll() {
        for (PendingSleep sleep : snapshot()) {
            sleep.future().complete(SleepEnd.WOKEN);
        }
    }

    /**
     * Advances the clock and ends, with {@link SleepEnd#ELAPSED}, every sleep whose due time has
     * been reached. Futures complete on the calling thread, outside this sleeper's lock.
     */
    public void advance(Duration amount) {
        Instant now = clock.advance(amount);
        for (PendingSleep sleep : snapshot()) {
            if (!sleep.dueAt().isAfter(now)) {
                sleep.future().complete(SleepEnd.ELAPSED);
            }
        }
    }

    /** The durations of the sleeps pending now, oldest first. */
    public synchronized List<Duration> pendingDurations() {
        return pending.stream().map(PendingSleep::duration).toList();
    }

    /**
     * Blocks until a sleep of exactly {@code duration} is pending.
     *
     * @throws AssertionError if none appears within {@code timeout}, listing what is pending
     */
    public synchronized void awaitPending(Duration duration, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (pending.stream().noneMatch(s -> s.duration().equals(duration))) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("no sleep of " + duration + " became pending within " + timeout
                        + "; pending: " + pendingDurations());
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    private synchronized List<PendingSleep> snapshot() {
        return List.copyOf(pending);
    }

    private synchronized void forget(PendingSleep entry) {
        pending.remove(entry);
        notifyAll();
    }

    private record PendingSleep(Duration duration, Instant dueAt, CompletableFuture<SleepEnd> future) {
    }
}

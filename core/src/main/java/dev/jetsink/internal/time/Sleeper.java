package dev.jetsink.internal.time;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Waits out backoff sleeps (DESIGN.md "Delivery") without blocking a thread, and lets a connection
 * event end every pending sleep at once: after a reconnect, recovery must not wait out a 32 s
 * backoff.
 *
 * <p>One sleeper belongs to one target, so {@link #wakeAll()} on a reconnect of that target wakes
 * only its own sleeps. Production code uses {@link ScheduledSleeper}; tests use
 * a manual sleeper (core's test sources), which lets them wait until a sleep is pending and then advance time.
 */
public interface Sleeper {

    /**
     * Starts a sleep. The future completes with {@link SleepEnd#ELAPSED} after {@code duration}, or
     * with {@link SleepEnd#WOKEN} as soon as {@link #wakeAll()} is called. A zero or negative
     * duration completes at once. Cancelling the future abandons the sleep.
     */
    CompletableFuture<SleepEnd> sleep(Duration duration);

    /** Ends every sleep pending right now with {@link SleepEnd#WOKEN}; later sleeps are unaffected. */
    void wakeAll();

    /** How a sleep ended. */
    enum SleepEnd {
        /** The full duration passed. */
        ELAPSED,
        /** {@link Sleeper#wakeAll()} ended it early, e.g. because the connection came back. */
        WOKEN
    }
}

package dev.jetsink.internal.delivery;

import java.time.Duration;

/** What an entry does after a transient failure (DESIGN.md "Delivery"). */
sealed interface NextStep permits NextStep.RetryAfter, NextStep.CycleExhausted {

    /**
     * Sleep {@code backoff} (ended early by a reconnect) and make attempt {@code nextAttempt} of the
     * same cycle.
     */
    record RetryAfter(Duration backoff, int nextAttempt) implements NextStep {
    }

    /**
     * The cycle spent its attempts: warn once (this step is returned once per cycle), put the entry
     * behind the other waiting entries, and call {@link RetryState#startNewCycle()} when its turn
     * comes. Never counts as a failed message.
     */
    record CycleExhausted(int cycle, long lifetimeAttempts) implements NextStep {
    }
}

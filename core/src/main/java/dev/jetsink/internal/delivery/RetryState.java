package dev.jetsink.internal.delivery;

/**
 * Where one entry stands in the retry schedule: its cycle, the attempts made in that cycle, and its
 * lifetime attempts (the failed store's {@code retry_count}). Thread-safe, since failures of an
 * entry in flight may be reported from jnats callback threads.
 */
final class RetryState {

    private final RetrySchedule schedule;
    private int cycle = 1;
    private int attemptsInCycle;
    private long lifetimeAttempts;

    RetryState(RetrySchedule schedule, long lifetimeAttempts) {
        this.schedule = schedule;
        this.lifetimeAttempts = lifetimeAttempts;
    }

    /**
     * Counts a transient failure (an attempt, including a validation that failed before publishing)
     * and says what comes next.
     *
     * @throws IllegalStateException if the cycle is already exhausted and no new one was started
     */
    public synchronized NextStep recordFailure() {
        if (attemptsInCycle >= RetrySchedule.ATTEMPTS_PER_CYCLE) {
            throw new IllegalStateException("cycle " + cycle + " is exhausted; start a new cycle first");
        }
        attemptsInCycle++;
        lifetimeAttempts++;
        if (attemptsInCycle == RetrySchedule.ATTEMPTS_PER_CYCLE) {
            return new NextStep.CycleExhausted(cycle, lifetimeAttempts);
        }
        return new NextStep.RetryAfter(schedule.backoffAfter(attemptsInCycle), attemptsInCycle + 1);
    }

    /**
     * Counts the attempt that ended the entry (an ack, or a permanent rejection) and returns the
     * lifetime attempts including it, for the failed store's {@code retry_count}.
     */
    public synchronized long recordFinalAttempt() {
        attemptsInCycle++;
        lifetimeAttempts++;
        return lifetimeAttempts;
    }

    /**
     * Starts a fresh cycle: after exhaustion when the entry's turn comes again, or when probe mode
     * sends the entry back to waiting (probe mode, DESIGN.md "Delivery"). Does nothing if the
     * current cycle has no attempts yet, so an untried entry is not counted as having spent a
     * cycle.
     */
    public synchronized void startNewCycle() {
        if (attemptsInCycle > 0) {
            cycle++;
            attemptsInCycle = 0;
        }
    }

    public synchronized int cycle() {
        return cycle;
    }

    public synchronized int attemptsInCycle() {
        return attemptsInCycle;
    }

    public synchronized long lifetimeAttempts() {
        return lifetimeAttempts;
    }

    public synchronized boolean cycleExhausted() {
        return attemptsInCycle >= RetrySchedule.ATTEMPTS_PER_CYCLE;
    }
}

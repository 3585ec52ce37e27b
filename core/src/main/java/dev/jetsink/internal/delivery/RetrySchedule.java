package dev.jetsink.internal.delivery;

import java.time.Duration;
import java.util.List;

/**
 * The retry schedule (DESIGN.md "Delivery"): a cycle is at most {@value #ATTEMPTS_PER_CYCLE}
 * attempts of one entry with backoff sleeps of 4, 8, 16 and 32 s between them and none after the
 * last. The sleeps are multiplied by a backoff scale ({@code JETSINK_BACKOFF_SCALE}, default 1;
 * tests and drills only). The duplicate-window formula built on these numbers lives in
 * {@link dev.jetsink.internal.nats.DuplicateWindow}.
 */
public final class RetrySchedule {

    /** Attempts in one cycle. */
    public static final int ATTEMPTS_PER_CYCLE = 5;
    /** Unscaled sleeps after attempts 1..4 of a cycle. */
    public static final List<Duration> BASE_BACKOFF = List.of(
            Duration.ofSeconds(4), Duration.ofSeconds(8), Duration.ofSeconds(16), Duration.ofSeconds(32));

    private static final RetrySchedule STANDARD = new RetrySchedule(1.0);

    private final double scale;
    private final List<Duration> backoff;

    /**
     * @param scale backoff multiplier, finite and not negative (0 means no sleeps)
     * @throws IllegalArgumentException for a negative, infinite or NaN scale
     */
    public RetrySchedule(double scale) {
        if (!Double.isFinite(scale) || scale < 0) {
            throw new IllegalArgumentException("backoff scale must be a finite number >= 0, got " + scale);
        }
        this.scale = scale;
        this.backoff = BASE_BACKOFF.stream()
                .map(d -> Duration.ofNanos(Math.round(d.toNanos() * scale)))
                .toList();
    }

    /** The production schedule (scale 1). */
    public static RetrySchedule standard() {
        return STANDARD;
    }

    public double scale() {
        return scale;
    }

    /** The scaled sleep after failed attempt {@code attemptInCycle} (1..4) of a cycle. */
    public Duration backoffAfter(int attemptInCycle) {
        if (attemptInCycle < 1 || attemptInCycle >= ATTEMPTS_PER_CYCLE) {
            throw new IllegalArgumentException("no backoff follows attempt " + attemptInCycle + " of a cycle");
        }
        return backoff.get(attemptInCycle - 1);
    }

    /** A fresh per-entry state on this schedule: cycle 1, no attempts yet. */
    public RetryState newState() {
        return new RetryState(this, 0);
    }

    /** Per-entry state resumed with {@code lifetimeAttempts} already made (e.g. counted before a restart). */
    public RetryState resumeState(long lifetimeAttempts) {
        if (lifetimeAttempts < 0) {
            throw new IllegalArgumentException("lifetime attempts cannot be negative");
        }
        return new RetryState(this, lifetimeAttempts);
    }
}

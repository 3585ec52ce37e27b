package dev.jetsink.internal.nats;

import java.time.Duration;

/**
 * The one place that knows how long a stream's duplicate window must be (OPERATIONS.md
 * "Why the window formula"): it must cover the worst-case span of one retry cycle, or a late retry
 * of an event the server already stored is delivered twice.
 *
 * <p>required = attempts × ack timeout + realized backoff + headroom = 5·t + 60 + 64 seconds
 * (274 s at 30, 724 s at 120). The terms mirror the delivery retry schedule ({@code RetrySchedule}); a unit
 * test keeps the two in step. The backoff scale (tests and drills only) is deliberately ignored:
 * the window protects production schedules.
 */
public final class DuplicateWindow {

    /** Attempts in one retry cycle. */
    public static final int ATTEMPTS_PER_CYCLE = 5;
    /** Sum of the backoff sleeps 4 + 8 + 16 + 32 between the attempts of one cycle, in seconds. */
    public static final int REALIZED_BACKOFF_SECS = 60;
    /** Fixed headroom above the realized span, in seconds. */
    public static final int HEADROOM_SECS = 64;

    private DuplicateWindow() {
    }

    /** Required window in whole seconds for an ack timeout of {@code ackTimeoutSecs} seconds. */
    public static long requiredSeconds(int ackTimeoutSecs) {
        if (ackTimeoutSecs <= 0) {
            throw new IllegalArgumentException("ack timeout must be positive, got " + ackTimeoutSecs + "s");
        }
        return (long) ATTEMPTS_PER_CYCLE * ackTimeoutSecs + REALIZED_BACKOFF_SECS + HEADROOM_SECS;
    }

    /** {@link #requiredSeconds(int)} as a {@link Duration}. */
    public static Duration required(int ackTimeoutSecs) {
        return Duration.ofSeconds(requiredSeconds(ackTimeoutSecs));
    }
}

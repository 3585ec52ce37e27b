package dev.jetsink.internal.time;

import java.time.Clock;
import java.time.Duration;

/**
 * Lets one of a run of identical log lines through per interval and counts the rest, so a full
 * disk that refuses a thousand requests a second writes one ERROR line every ten seconds saying
 * how many it stands for, instead of flooding the log that the operator needs.
 * Thread-safe.
 */
public final class LogThrottle {
    /** The interval for repeated error lines. */
    public static final Duration TEN_SECONDS = Duration.ofSeconds(10);

    private final Clock clock;
    private final long intervalMs;
    private long lastMs = Long.MIN_VALUE;
    private long suppressed;

    public LogThrottle(Clock clock, Duration interval) {
        this.clock = clock;
        this.intervalMs = interval.toMillis();
    }

    /**
     * -1 when this occurrence should not be logged; otherwise how many occurrences were held back
     * since the last line that was logged (0 for the first).
     */
    public synchronized long admit() {
        long now = clock.millis();
        if (lastMs != Long.MIN_VALUE && now - lastMs < intervalMs) {
            suppressed++;
            return -1;
        }
        lastMs = now;
        long held = suppressed;
        suppressed = 0;
        return held;
    }
}

package dev.jetsink.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A wall clock that only moves when a test moves it. Thread-safe: a dispatcher thread may read it
 * while the test thread advances it. Usually driven through {@link ManualSleeper#advance(Duration)},
 * which also releases the sleeps that become due.
 */
public final class FakeClock extends Clock {

    private final ZoneId zone;
    private volatile Instant now;

    public FakeClock(Instant start) {
        this(start, ZoneOffset.UTC);
    }

    private FakeClock(Instant start, ZoneId zone) {
        this.now = Objects.requireNonNull(start, "start");
        this.zone = Objects.requireNonNull(zone, "zone");
    }

    /** Moves time forward; a negative amount is refused because real wall time used here never runs back. */
    public synchronized Instant advance(Duration amount) {
        if (amount.isNegative()) {
            throw new IllegalArgumentException("cannot move the clock back by " + amount);
        }
        now = now.plus(amount);
        return now;
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId other) {
        // Shares nothing with this clock on purpose: callers of withZone get a snapshot.
        return new FakeClock(now, other);
    }
}

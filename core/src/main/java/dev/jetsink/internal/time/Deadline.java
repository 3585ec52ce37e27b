package dev.jetsink.internal.time;

import java.time.Duration;

/**
 * One deadline bounding a whole attempt (connect, validate, publish, ack) on monotonic time
 * (DESIGN.md "Delivery"): attempt deadlines use real time even when backoff sleeps use an injected
 * clock.
 */
public record Deadline(long expiresAtNanos) {

    public static Deadline after(Duration d) {
        return new Deadline(System.nanoTime() + d.toNanos());
    }

    /** Time left, never negative. */
    public Duration remaining() {
        return Duration.ofNanos(Math.max(0, expiresAtNanos - System.nanoTime()));
    }

    public boolean expired() {
        return expiresAtNanos - System.nanoTime() <= 0;
    }
}

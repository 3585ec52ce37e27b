package dev.jetsink.internal.targets;

import java.time.Duration;
import java.util.Locale;

/**
 * What a target is doing, beyond the stream verdict: the one word an operator needs
 * when {@code /health} still says {@code online} but nothing is delivered.
 */
public enum TargetState {
    /** Entries are queued and acknowledgements are arriving, or one arrived in the last 10 s. */
    DELIVERING,
    /** Nothing queued and nothing acknowledged recently. */
    IDLE,
    /** Entries queued and no publish ack for {@link #STALL_AFTER}: a hung broker, a full stream. */
    STALLED,
    /** The stream verdict is FAIL: the target takes events but cannot deliver them. */
    FAILING,
    /** The queue cannot be written (disk full, directory unwritable): new events are refused. */
    DEGRADED;

    /** How long queued entries may wait without any ack before the target counts as stalled. */
    public static final Duration STALL_AFTER = Duration.ofSeconds(30);
    /** How recent an ack keeps an empty queue's target {@link #DELIVERING}. */
    static final Duration RECENT_ACK = Duration.ofSeconds(10);
    /** How long a failed queue write keeps the target {@link #DEGRADED}. */
    static final Duration WRITE_FAILURE_HOLD = Duration.ofSeconds(30);

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The state from what a target knows. Precedence: degraded, failing, stalled, delivering, idle.
     *
     * @param nowMs              the clock
     * @param queueLength        live entries
     * @param oldestQueuedAtMs   queued-at of the oldest live entry (ignored when the queue is empty)
     * @param lastAckMs          last publish ack (0 when none since start)
     * @param startedMs          when the target started (an old backlog found at start stalls only after {@link #STALL_AFTER})
     * @param verdictFail        the stream verdict is FAIL
     * @param lastWriteFailureMs last failed queue write (0 when none)
     */
    public static TargetState of(long nowMs, long queueLength, long oldestQueuedAtMs, long lastAckMs, long startedMs,
                                 boolean verdictFail, long lastWriteFailureMs) {
        if (lastWriteFailureMs > 0 && nowMs - lastWriteFailureMs < WRITE_FAILURE_HOLD.toMillis()) {
            return DEGRADED;
        }
        if (verdictFail) {
            return FAILING;
        }
        if (queueLength > 0) {
            long progress = Math.max(lastAckMs, Math.max(startedMs, oldestQueuedAtMs));
            return nowMs - progress >= STALL_AFTER.toMillis() ? STALLED : DELIVERING;
        }
        return lastAckMs > 0 && nowMs - lastAckMs < RECENT_ACK.toMillis() ? DELIVERING : IDLE;
    }
}

package dev.jetsink;

import dev.jetsink.lifecycle.StreamVerdict;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A sink's target now: whether it can deliver, what it is doing, how much it holds.
 *
 * @param health          whether the target can deliver
 * @param healthReason    why, when not {@link Health#ONLINE}; empty text when online
 * @param state           what the target is doing
 * @param queueLength     events queued and not yet delivered
 * @param verdict         the stream verdict ({@link StreamVerdict#NONE} on the NATS Core path)
 * @param lastError       the last publish or queue error, as display text
 * @param connectedServer the URL of the NATS server connected to
 */
public record SinkStatus(Health health, String healthReason, State state, long queueLength, StreamVerdict verdict,
                         Optional<String> lastError, Optional<String> connectedServer) {

    /**
     * Checks that every component is present.
     *
     * @param health          the health
     * @param healthReason    why not online
     * @param state           the state
     * @param queueLength     queued events
     * @param verdict         the verdict
     * @param lastError       the last error
     * @param connectedServer the server connected to
     */
    public SinkStatus {
        Objects.requireNonNull(health, "health");
        Objects.requireNonNull(healthReason, "healthReason");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(lastError, "lastError");
        Objects.requireNonNull(connectedServer, "connectedServer");
    }

    /** Whether the target can deliver now. */
    public enum Health {
        /** Connected, and on the JetStream path the stream meets the requirements. */
        ONLINE,
        /** Not connected (or the stream cannot be reached): events queue and wait. */
        OFFLINE,
        /** The stream fails validation or the queue directory is unavailable: something must change. */
        ERROR;

        /**
         * The name in lower case.
         *
         * @return e.g. {@code online}
         */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What the target is doing, beyond the verdict. */
    public enum State {
        /** Entries are queued and acknowledgements arrive, or one arrived in the last seconds. */
        DELIVERING,
        /** Nothing queued and nothing acknowledged recently. */
        IDLE,
        /** Entries queued and no acknowledgement for a while: a hung broker, a full stream. */
        STALLED,
        /** The stream verdict is FAIL: events are taken but cannot be delivered. */
        FAILING,
        /** The queue cannot be written: new events are refused. */
        DEGRADED;

        /**
         * The name in lower case.
         *
         * @return e.g. {@code delivering}
         */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}

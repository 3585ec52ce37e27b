package dev.jetsink.lifecycle;

import java.util.Optional;

/**
 * The lifecycle events of a target, one record per kind. Each names its target by
 * id as shown everywhere (e.g. {@code notify primary:nats}) and entries by their {@code Nats-Msg-Id}.
 */
public sealed interface LifecycleEvent {

    /**
     * The target the event belongs to.
     *
     * @return its id, e.g. {@code notify primary:nats}
     */
    String target();

    /** The stream verdict changed, to PASS or UNSET; {@code reason} is present for a reset. */
    record VerdictChanged(String target, StreamVerdict state, Optional<ResetReason> reason)
            implements LifecycleEvent {
    }

    /**
     * An entry left the live queue because it was delivered ({@code duplicate}: already stored).
     * {@code seq} is its queue sequence; {@code stream} and {@code streamSeq} come from the
     * publish ack (empty and 0 on the Core path).
     */
    record EntryResolved(String target, String msgId, long seq, boolean duplicate, long lifetimeAttempts,
                         java.time.Duration sinceQueued, String stream, long streamSeq)
            implements LifecycleEvent {
    }

    /**
     * An entry was recorded in the failed store after a permanent outcome; {@code seq} is its
     * queue sequence, {@code record} the failed-store file written.
     */
    record MovedToFailedStore(String target, String msgId, long seq, Outcome outcome, long lifetimeAttempts,
                              java.nio.file.Path record)
            implements LifecycleEvent {
    }

    /** An entry spent a cycle without delivering and stays queued. */
    record CycleExhausted(String target, String msgId, int cycle, long lifetimeAttempts, String lastError)
            implements LifecycleEvent {
    }

    /** The target stopped opening new publishes; {@code probeMsgId} is the entry retried alone. */
    record ProbeModeEntered(String target, String probeMsgId) implements LifecycleEvent {
    }

    /** The probe delivered and the publish window reopened. */
    record ProbeModeLeft(String target) implements LifecycleEvent {
    }

    /** The target's connection changed. */
    record ConnectionChanged(String target, ConnectionEvent event) implements LifecycleEvent {
    }

    /** One attempt failed with {@code outcome} (transient or permanent). */
    record AttemptFailed(String target, String msgId, Outcome outcome, int attemptInCycle)
            implements LifecycleEvent {
    }

    /**
     * A live validation of the JetStream stream failed (missing, not capturing the subject, a
     * duplicate window too short, sealed, ...): {@code message} says which, as the ERROR log does.
     */
    record StreamValidationFailed(String target, String stream, String message) implements LifecycleEvent {
    }

    /** Connection changes a target reports. */
    enum ConnectionEvent {
        /** The first connection was made. */
        CONNECTED,
        /** The connection dropped; the client keeps reconnecting. */
        DISCONNECTED,
        /** The client reconnected after a drop. */
        RECONNECTED,
        /** The connection was closed for good (the target closed). */
        CLOSED
    }
}

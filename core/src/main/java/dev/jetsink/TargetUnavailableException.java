package dev.jetsink;

import java.util.Objects;

/**
 * The target takes no events for now, for the {@link #reason()} given. Nothing was queued. Sends
 * succeed again once a retry of the init succeeds or the queue directory can be written; a
 * closed sink takes none again.
 */
public final class TargetUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Why a target takes no events. */
    public enum Reason {
        /** Its stream failed validation at init, for instance a sealed stream; the init is retried. */
        INIT_FAILED,
        /** Its queue directory cannot be opened or written (a full disk, wrong permissions); retried. */
        QUEUE_DIRECTORY_UNAVAILABLE,
        /** The sink is closed. */
        CLOSED
    }

    /** Why the target takes no events; part of the serialized form. */
    private final Reason reason;

    /**
     * An exception saying why the target is unavailable.
     *
     * @param reason the kind of reason
     * @param message the reason, for people
     */
    public TargetUnavailableException(Reason reason, String message) {
        super(message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /**
     * Why the target takes no events.
     *
     * @return the kind of reason
     */
    public Reason reason() {
        return reason;
    }
}

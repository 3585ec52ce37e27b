package dev.jetsink;

/**
 * The target takes no events for now: its stream failed validation at init (for instance a sealed
 * stream, DESIGN.md "Stream validation and verdict") or its queue directory cannot be written.
 * Nothing was queued; sends succeed again once a retry of the init succeeds.
 */
public final class TargetUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception saying why the target is unavailable.
     *
     * @param message the reason
     */
    public TargetUnavailableException(String message) {
        super(message);
    }
}

package dev.jetsink.internal.target;

/**
 * The target failed its init (a sealed stream, DESIGN.md "Stream validation and verdict") and takes
 * no events until a retry succeeds.
 */
public final class TargetUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TargetUnavailableException(String message) {
        super(message);
    }
}

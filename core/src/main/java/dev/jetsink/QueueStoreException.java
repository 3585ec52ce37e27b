package dev.jetsink;

/**
 * A queue operation failed on I/O: a failed write or fsync, an unreadable record, a queue that
 * could not be opened. A send that fails with this was not acknowledged; the event may or may not
 * reappear after a restart (at-least-once), never as a partial record.
 */
public class QueueStoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message only.
     *
     * @param message what failed
     */
    public QueueStoreException(String message) {
        super(message);
    }

    /**
     * An exception with the I/O error behind it.
     *
     * @param message what failed
     * @param cause   the underlying error
     */
    public QueueStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}

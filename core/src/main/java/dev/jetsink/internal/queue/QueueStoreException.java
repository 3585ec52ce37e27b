package dev.jetsink.internal.queue;

/**
 * A queue operation failed on I/O (a failed write or fsync, an unreadable record, a queue that
 * could not be opened). An append that fails with this was not acknowledged; it may or may not
 * reappear after a restart (at-least-once), never as a partial record.
 */
public class QueueStoreException extends RuntimeException {
    public QueueStoreException(String message) {
        super(message);
    }

    public QueueStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}

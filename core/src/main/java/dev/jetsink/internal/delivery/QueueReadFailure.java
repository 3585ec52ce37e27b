package dev.jetsink.internal.delivery;

/** A live entry's record could not be read back from the queue; the entry stays queued. */
final class QueueReadFailure extends Exception {
    private static final long serialVersionUID = 1L;

    QueueReadFailure(Throwable cause) {
        super("queue record unreadable", cause);
    }
}

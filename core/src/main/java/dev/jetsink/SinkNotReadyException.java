package dev.jetsink;

/**
 * A sink cannot deliver, found by {@link Sink#awaitReady(java.time.Duration)}: its stream fails
 * jetsink's requirements (for instance a duplicate window shorter than the ack timeout needs), the
 * target is unavailable, or no connection to the servers could be made in time. The message says
 * which, with the numbers or the server addresses and the cause.
 */
public final class SinkNotReadyException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Whether the wait ran out rather than a check failing for good. */
    private final boolean timedOut;

    /**
     * An exception with the reason the sink cannot deliver.
     *
     * @param message  the reason, for a person
     * @param timedOut true when the wait ran out while the sink might still become ready (not
     *                 connected yet), false when it cannot deliver until something is changed
     */
    public SinkNotReadyException(String message, boolean timedOut) {
        super(message);
        this.timedOut = timedOut;
    }

    /**
     * Whether the wait ran out (the sink was not connected in time) rather than a check failing
     * for good (the stream, the queue directory).
     *
     * @return true when the wait timed out
     */
    public boolean timedOut() {
        return timedOut;
    }
}

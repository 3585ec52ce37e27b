package dev.jetsink;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Why a {@link Receipt#delivered()} future failed. The event was durable in the queue either way;
 * this says where it is now.
 */
public final class NotDeliveredException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Where the event went instead of the stream. */
    public enum Reason {
        /**
         * The stream refused it for good (too large, a sealed stream, an expected-sequence
         * mismatch): it is in the failed-events store, see {@link #failedRecord()}, from where an
         * operator may replay it.
         */
        REJECTED,
        /**
         * The sink was closed first: the event stays in the queue directory and is delivered by
         * the next sink (or jetsink process) opened on it. Nothing is lost; this process just will not see it.
         */
        STILL_QUEUED
    }

    /** Why the event was not delivered. */
    private final Reason reason;
    /** The event's msg id. */
    private final String msgId;
    private final transient Path failedRecord;

    NotDeliveredException(Reason reason, String msgId, String message, Path failedRecord) {
        super(message);
        this.reason = reason;
        this.msgId = msgId;
        this.failedRecord = failedRecord;
    }

    /**
     * Why the event did not reach the stream.
     *
     * @return the reason
     */
    public Reason reason() {
        return reason;
    }

    /**
     * The event's {@code Nats-Msg-Id}.
     *
     * @return the msg id
     */
    public String msgId() {
        return msgId;
    }

    /**
     * The failed-events store file holding the event ({@link Reason#REJECTED} only).
     *
     * @return the file, or empty when still queued
     */
    public Optional<Path> failedRecord() {
        return Optional.ofNullable(failedRecord);
    }
}

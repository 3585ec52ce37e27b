package dev.jetsink.internal.publish;

import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.internal.time.Deadline;
import java.util.concurrent.CompletableFuture;

/**
 * How a dispatcher gets an entry's bytes to NATS: the JetStream path or the Core path. The
 * dispatcher owns ordering, the window, retries and resolution; a path only talks to NATS.
 */
public interface Publisher extends AutoCloseable {

    /**
     * Makes the target ready for an attempt, within the attempt's deadline: a connection, and on
     * the JetStream path a live stream validation while the verdict is unset.
     *
     * @throws Exception what failed; the dispatcher classifies it (every failure here is transient)
     */
    void prepare(Deadline deadline) throws Exception;

    /**
     * Starts one publish. The future completes when the entry is delivered (JetStream: a PubAck
     * from the configured stream; Core: the flush that follows the fill) and fails with what
     * NATS reported. An exception thrown here is the attempt's outcome too. {@code keySequence},
     * when positive, is the entry's place among its object's events ({@code ORDER=key}), sent as
     * {@value MessageHeaders#SEQUENCE}.
     */
    CompletableFuture<Delivered> publish(QueuedEntry entry, long keySequence, byte[] payload, Deadline deadline)
        throws Exception;

    /** Called after each fill of the window: the Core path flushes here. */
    void endFill(Deadline deadline);

    /** Fails every publish still waiting, as transient (the connection reported DISCONNECTED). */
    default void abandonInFlight() {
    }

    /** Releases the connection; never touches queued entries. */
    @Override
    void close();

    /**
     * A delivered publish. {@code duplicate} when the stream already held this msg id; the stream
     * and its sequence from the ack (empty and 0 on the Core path, which has no ack).
     * {@code storedNumber}: for a duplicate published with a {@code keySequence}, the
     * {@value MessageHeaders#SEQUENCE} the stored copy carries (0 when it carries none), read back
     * from the stream; {@link #UNKNOWN} when not read (not such a duplicate, or the read failed).
     */
    record Delivered(boolean duplicate, String stream, long streamSeq, long storedNumber) {
        /** {@code storedNumber} when the stored copy's number was not read. */
        public static final long UNKNOWN = -1;
        static final Delivered CORE = new Delivered(false, "", 0, UNKNOWN);

        /** A publish whose stored copy's number was not read. */
        public Delivered(boolean duplicate, String stream, long streamSeq) {
            this(duplicate, stream, streamSeq, UNKNOWN);
        }

        /**
         * Whether the stream may hold {@code keySequence} for this event: false only when the
         * stored copy was read back and carries another number (or none).
         */
        public boolean mayHoldNumber(long keySequence) {
            return storedNumber == UNKNOWN || storedNumber == keySequence;
        }
    }
}

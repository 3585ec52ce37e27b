package dev.jetsink;

import java.util.concurrent.CompletableFuture;

/**
 * The first of an event's two signals: it is durable in the local queue (fsynced), under this
 * {@code Nats-Msg-Id} and queue sequence. The second, {@link #delivered()}, completes when the
 * stream acknowledges it.
 */
public final class Receipt {
    private final String msgId;
    private final long queueSeq;
    private final CompletableFuture<Delivery> delivered;

    Receipt(String msgId, long queueSeq, CompletableFuture<Delivery> delivered) {
        this.msgId = msgId;
        this.queueSeq = queueSeq;
        this.delivered = delivered;
    }

    /**
     * The {@code Nats-Msg-Id} the event is published with, on every retry and replay.
     *
     * @return the msg id
     */
    public String msgId() {
        return msgId;
    }

    /**
     * The event's sequence in the local queue.
     *
     * @return the queue sequence, unique within the queue directory
     */
    public long queueSeq() {
        return queueSeq;
    }

    /**
     * Completes with the stream's ack, or fails with {@link NotDeliveredException}: rejected for
     * good (the failed-store record's path), or still queued when the sink closed. Callbacks run
     * on the sink's one receipt thread, in the order outcomes arrive: keep them short.
     *
     * @return the future of the delivery
     */
    public CompletableFuture<Delivery> delivered() {
        return delivered;
    }

    @Override
    public String toString() {
        return "Receipt[msgId=" + msgId + ", queueSeq=" + queueSeq + ", delivered=" + delivered + "]";
    }
}

package dev.jetsink;

import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.LifecycleListener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The delivered-futures of one sink: the entries this process queued and has not seen resolved,
 * keyed by queue sequence (so two sends of the same event, one msg id, stay two receipts).
 *
 * <p>The dispatcher can deliver an entry before its append's future has handed the sequence to
 * {@link #track}: such an outcome is kept until the receipt arrives. Only sequences above the
 * {@code floor} (the newest entry queued before the sink opened) can be this process's, so
 * entries left by an earlier run never accumulate here. Futures complete on the sink's
 * {@link Receipts} thread, never on the delivery thread.
 */
final class ReceiptBook implements LifecycleListener {

    private long floor = Long.MAX_VALUE;
    private final Receipts receipts;
    private final Map<Long, Waiting> waiting = new HashMap<>();
    private final Map<Long, Outcome> early = new HashMap<>();
    private boolean closed;

    private record Waiting(CompletableFuture<Delivery> future, String msgId) {
    }

    /** An outcome that arrived before its receipt: a delivery or the exception to fail with. */
    private record Outcome(Delivery delivery, NotDeliveredException failure) {
    }

    ReceiptBook(Receipts receipts) {
        this.receipts = receipts;
    }

    /**
     * Sets the newest sequence queued before this sink opened. Until then every outcome is taken
     * as an earlier run's (nothing of this process is queued before the sink exists).
     */
    synchronized void floor(long newestBeforeOpen) {
        this.floor = newestBeforeOpen;
    }

    /** The delivered-future for an entry just queued under {@code seq}. */
    CompletableFuture<Delivery> track(long seq, String msgId) {
        CompletableFuture<Delivery> f = receipts.newFuture();
        Outcome known;
        synchronized (this) {
            known = early.remove(seq);
            if (known == null) {
                if (closed) {
                    known = new Outcome(null, stillQueued(msgId));
                } else {
                    waiting.put(seq, new Waiting(f, msgId));
                    return f;
                }
            }
        }
        settle(f, known);
        return f;
    }

    @Override
    public void entryResolved(LifecycleEvent.EntryResolved e) {
        record(e.seq(), new Outcome(new Delivery(e.stream(), e.streamSeq(), e.duplicate(), e.lifetimeAttempts()), null));
    }

    @Override
    public void movedToFailedStore(LifecycleEvent.MovedToFailedStore e) {
        record(e.seq(), new Outcome(null, new NotDeliveredException(NotDeliveredException.Reason.REJECTED, e.msgId(),
            "rejected by the stream for good, kept in the failed-events store at " + e.record() + ": "
                + e.outcome().detail(), e.record())));
    }

    private void record(long seq, Outcome o) {
        Waiting w;
        synchronized (this) {
            if (seq <= floor) {
                notifyAll();
                return; // queued by an earlier run: nobody here holds a receipt for it
            }
            w = waiting.remove(seq);
            if (w == null && !closed) {
                early.put(seq, o);
            }
            notifyAll();
        }
        if (w != null) {
            settle(w.future(), o);
        }
    }

    private void settle(CompletableFuture<Delivery> f, Outcome o) {
        receipts.executor().execute(() -> {
            if (o.failure() != null) {
                f.completeExceptionally(o.failure());
            } else {
                f.complete(o.delivery());
            }
        });
    }

    /** Fails every receipt still waiting: its entry stays queued for the next run. */
    void close() {
        List<Waiting> left;
        synchronized (this) {
            closed = true;
            left = new ArrayList<>(waiting.values());
            waiting.clear();
            early.clear();
            notifyAll();
        }
        for (Waiting w : left) {
            w.future().completeExceptionally(stillQueued(w.msgId()));
        }
    }

    /** Receipts waiting for their outcome. */
    synchronized int pending() {
        return waiting.size();
    }

    /**
     * Waits until {@code done} holds, checking after every outcome; false when {@code deadlineNanos}
     * (of {@link System#nanoTime()}) passes first or the book is closed.
     */
    synchronized boolean await(java.util.function.BooleanSupplier done, long deadlineNanos) throws InterruptedException {
        while (!done.getAsBoolean()) {
            long left = deadlineNanos - System.nanoTime();
            if (closed || left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    private static NotDeliveredException stillQueued(String msgId) {
        return new NotDeliveredException(NotDeliveredException.Reason.STILL_QUEUED, msgId,
            "still queued when the sink closed; delivered by the next sink or jetsink process opened on its queue directory",
            null);
    }
}

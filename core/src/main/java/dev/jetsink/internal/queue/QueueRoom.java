package dev.jetsink.internal.queue;

import dev.jetsink.QueueFullException;
import dev.jetsink.QueueStoreException;
import java.nio.file.Path;

/**
 * The room of one queue against its {@code queue_limit} (DESIGN.md "The way in"): live entries,
 * appends handed to the writer and not yet committed, and slots held by reservations all count.
 * Not thread-safe: the queue calls it under its monitor, the one that guards the live index, so
 * an entry moving from in flight to live is never counted twice or not at all.
 */
final class QueueRoom {
    private final Path dir;
    private final long limit;
    private final LiveIndex index;
    private long reserved;
    private long inflight;

    QueueRoom(Path dir, long limit, LiveIndex index) {
        this.dir = dir;
        this.limit = limit;
        this.index = index;
    }

    /**
     * Throws why {@code n} more entries cannot be taken now.
     *
     * @throws QueueFullException  at {@code queue_limit}
     * @throws QueueStoreException when the queue is closed
     */
    void check(int n, boolean closed) {
        if (n < 0) {
            throw new IllegalArgumentException("cannot make room for " + n + " entries");
        }
        if (closed) {
            throw new QueueStoreException("queue " + dir + " is closed");
        }
        long used = index.live() + inflight + reserved;
        if (used + n > limit) {
            throw new QueueFullException(dir, limit, used, n);
        }
    }

    /** Holds {@code n} slots for a reservation, or throws as {@link #check} does. */
    void reserve(int n, boolean closed) {
        check(n, closed);
        reserved += n;
    }

    /** Gives back slots a reservation did not use. */
    void release(int unused) {
        reserved -= unused;
    }

    /**
     * One append goes to the writer: on a slot a reservation held (given up even when the append
     * is then refused), or on one taken now. Throws as {@link #check} does.
     */
    void startAppend(boolean onReservedSlot, boolean closed) {
        if (onReservedSlot) {
            reserved--;
        }
        check(onReservedSlot ? 0 : 1, closed);
        inflight++;
    }

    /** {@code n} appends left the writer, committed (now live) or failed. */
    void appendsEnded(int n) {
        inflight -= n;
    }
}

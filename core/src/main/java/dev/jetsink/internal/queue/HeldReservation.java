package dev.jetsink.internal.queue;

import dev.jetsink.internal.event.EventMetadata;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Capacity held by {@link SegmentedQueue#reserve}; slots not used are given back on close. */
final class HeldReservation implements Reservation {
    private final SegmentedQueue queue;
    private int remaining;

    HeldReservation(SegmentedQueue queue, int n) {
        this.queue = queue;
        this.remaining = n;
    }

    @Override
    public CompletableFuture<QueuedEntry> append(EventMetadata metadata, byte[] payload, Optional<String> msgId) {
        return append(metadata, payload, msgId, EntryAttributes.NONE);
    }

    @Override
    public CompletableFuture<QueuedEntry> append(EventMetadata metadata, byte[] payload, Optional<String> msgId,
                                                 EntryAttributes attributes) {
        // checked before a slot is taken, so a refused entry leaves the reservation whole
        RecordCodec.checkFits(metadata, payload, attributes);
        synchronized (this) {
            if (remaining <= 0) {
                throw new IllegalStateException("no reserved capacity left");
            }
            remaining--;
        }
        return queue.submit(metadata, payload, msgId, attributes, true);
    }

    @Override
    public synchronized int remaining() {
        return remaining;
    }

    @Override
    public void close() {
        int unused;
        synchronized (this) {
            unused = remaining;
            remaining = 0;
        }
        if (unused > 0) {
            queue.release(unused);
        }
    }
}

package dev.jetsink.queue;

import dev.jetsink.event.EventMetadata;
import java.util.Optional;
import java.util.UUID;
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
    public CompletableFuture<QueuedEntry> append(EventMetadata metadata, byte[] payload, Optional<UUID> msgId) {
        // checked before a slot is taken, so a refused entry leaves the reservation whole
        RecordCodec.checkFits(metadata, payload);
        synchronized (this) {
            if (remaining <= 0) {
                throw new IllegalStateException("no reserved capacity left");
            }
            remaining--;
        }
        return queue.submit(metadata, payload, msgId);
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

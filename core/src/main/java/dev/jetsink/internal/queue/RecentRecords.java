package dev.jetsink.internal.queue;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Records of a {@link SegmentedQueue} kept in memory until they are resolved or crowded out, so the
 * dispatcher lists and publishes an entry without a read of its own from the segment. Two are kept
 * per queue ({@link RecordReader}): the records committed last, as they were written, and the
 * records read ahead of the dispatcher from disk, as they were read and checked. Bounded by
 * payload bytes; the oldest go first, and an entry not held is read from disk. Holds what was
 * written or read then, not what the disk holds now: damage done to a record later is found on its
 * next read from disk or on recovery.
 *
 * <p>Thread-safe: the queue adds and forgets entries under its monitor, readers look here first.
 */
final class RecentRecords {

    /** A committed entry and the payload it was written with. */
    record Held(QueuedEntry entry, byte[] payload) {
    }

    private final long maxBytes;
    /** By sequence number, oldest first (entries are committed in sequence order). */
    private final LinkedHashMap<Long, Held> held = new LinkedHashMap<>();
    private long bytes;

    RecentRecords(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative: " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** Keeps an entry; drops the oldest held entries while over the bound. */
    synchronized void hold(QueuedEntry entry, byte[] payload) {
        if (payload.length > maxBytes) {
            return;
        }
        Held previous = held.put(entry.seq(), new Held(entry, payload));
        if (previous != null) {
            bytes -= previous.payload.length;
        }
        bytes += payload.length;
        Iterator<Map.Entry<Long, Held>> oldest = held.entrySet().iterator();
        while (bytes > maxBytes && oldest.hasNext()) {
            bytes -= oldest.next().getValue().payload.length;
            oldest.remove();
        }
    }

    synchronized Optional<Held> get(long seq) {
        return Optional.ofNullable(held.get(seq));
    }

    /** The entry, no longer held. */
    synchronized Optional<Held> take(long seq) {
        Held gone = held.remove(seq);
        if (gone != null) {
            bytes -= gone.payload.length;
        }
        return Optional.ofNullable(gone);
    }

    /** Forgets an entry once it is resolved. */
    void forget(long seq) {
        take(seq);
    }

    synchronized int size() {
        return held.size();
    }

    synchronized long bytes() {
        return bytes;
    }
}

package dev.jetsink.internal.queue;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The records a {@link SegmentedQueue} committed last, kept in memory until they are resolved or
 * crowded out, so the dispatcher lists and publishes a fresh entry without reading it back from
 * the segment it was just forced into. Bounded by payload bytes; the oldest go first, and an entry
 * not held here is read from disk as before. Holds what was written, not what the disk holds now:
 * damage done to a record after its commit is found on its next read from disk or on recovery.
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

    /** Keeps a just-committed entry; drops the oldest held entries while over the bound. */
    synchronized void committed(QueuedEntry entry, byte[] payload) {
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

    /** Forgets an entry once it is resolved. */
    synchronized void forget(long seq) {
        Held gone = held.remove(seq);
        if (gone != null) {
            bytes -= gone.payload.length;
        }
    }

    synchronized int size() {
        return held.size();
    }

    synchronized long bytes() {
        return bytes;
    }
}

package dev.jetsink.server.http;

import java.time.Duration;
import java.util.concurrent.Semaphore;

/**
 * Bounds the request-body bytes the ingest holds at once. A body is held whole until its events
 * are queued, with its envelopes beside it (about its size again; records are parsed one at a
 * time), so many maximal 4 MiB bodies at once would still need more than the launcher's
 * heap (measured before streaming parse: a flood of them ran the daemon out of memory). Each body is charged for the bytes that have actually arrived, never for a declared
 * length, so a client that declares 4 MiB and stalls holds nothing; the room goes back when the
 * request is answered. Ordinary webhook bodies, a few KiB, always fit.
 */
public final class BodyBudget {

    /** How long a body may wait for room before its request is answered 503. */
    static final Duration WAIT = Duration.ofSeconds(2);
    /** A body, its envelopes and one record's tree take about 2.5 times its bytes (see DESIGN.md). */
    private static final int HEAP_SHARE = 8;
    private static final int UNIT = 1024;

    private final Semaphore kib;
    private final int capacityKib;

    /**
     * @param capacityBytes bytes of bodies held at once; at least {@code maxBodyBytes}, so a
     *                      maximal body always fits when nothing else is held
     * @param maxBodyBytes  the largest body the ingest reads
     */
    BodyBudget(long capacityBytes, int maxBodyBytes) {
        this.capacityKib = Math.max(kib(capacityBytes), kib(maxBodyBytes)); // kib() caps at Integer.MAX_VALUE
        this.kib = new Semaphore(capacityKib);
    }

    /** A budget of an eighth of the JVM's maximum heap (24 MiB at the launcher's 192 MiB). */
    public static BodyBudget forHeap(long maxHeapBytes, int maxBodyBytes) {
        return new BodyBudget(maxHeapBytes / HEAP_SHARE, maxBodyBytes);
    }

    public long capacityBytes() {
        return (long) capacityKib * UNIT;
    }

    /** The room of one request's body, empty until bytes are charged to it. */
    public Grant open() {
        return new Grant();
    }

    private static int kib(long bytes) {
        return (int) Math.min(Integer.MAX_VALUE, (bytes + UNIT - 1) / UNIT);
    }

    /** Room held for one request's body; {@link #close} gives all of it back (idempotent). */
    public final class Grant implements AutoCloseable {
        private long bytes;
        private int units;
        private boolean closed;

        private Grant() {
        }

        /** Charges {@code more} received bytes; false, charging nothing, when there is no room now. */
        synchronized boolean charge(int more) {
            if (closed) {
                return false;
            }
            int needed = kib(bytes + more) - units;
            if (needed > 0 && !kib.tryAcquire(needed)) {
                return false;
            }
            bytes += more;
            units += Math.max(0, needed);
            return true;
        }

        synchronized long bytes() {
            return bytes;
        }

        @Override
        public synchronized void close() {
            closed = true;
            if (units > 0) {
                kib.release(units);
                units = 0;
            }
        }
    }
}

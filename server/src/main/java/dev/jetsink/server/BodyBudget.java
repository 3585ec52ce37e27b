package dev.jetsink.server;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Bounds the request bytes the ingest holds at once. A body is read whole and parsed into a tree
 * several times its size, so 32 workers each holding a maximal 4 MiB body would need far more
 * than the launcher's heap (measured: a flood of them ran the daemon out of memory). Each request
 * first takes room for its declared length (the maximum when it declares none) and gives it back
 * when answered; a request that finds no room within {@link #WAIT} is answered 503. Ordinary
 * webhook bodies, a few KiB, never wait: the budget only holds back many large bodies at once.
 */
final class BodyBudget {

    /** How long a request may wait for room before it is answered 503. */
    static final Duration WAIT = Duration.ofSeconds(2);
    /** The parse tree and payload copies of a body take several times its bytes (see DESIGN.md). */
    private static final int HEAP_SHARE = 24;
    private static final int UNIT = 1024;

    private final Semaphore kib;
    private final int capacityKib;
    private final int maxBodyKib;

    /**
     * @param capacityBytes bytes of bodies held at once; at least {@code maxBodyBytes}, so a
     *                      maximal body always fits when nothing else is held
     * @param maxBodyBytes  the largest body the ingest reads
     */
    BodyBudget(long capacityBytes, int maxBodyBytes) {
        this.maxBodyKib = kib(maxBodyBytes);
        this.capacityKib = (int) Math.min(Integer.MAX_VALUE, Math.max(kib(capacityBytes), maxBodyKib));
        this.kib = new Semaphore(capacityKib);
    }

    /** A budget of a 24th of the JVM's maximum heap (8 MiB at the launcher's 192 MiB). */
    static BodyBudget forHeap(long maxHeapBytes, int maxBodyBytes) {
        return new BodyBudget(maxHeapBytes / HEAP_SHARE, maxBodyBytes);
    }

    long capacityBytes() {
        return (long) capacityKib * UNIT;
    }

    /**
     * Takes room for a body of {@code declaredLength} bytes (empty: not declared, so the maximum),
     * waiting at most {@code wait}. Empty when there was no room in time.
     */
    Optional<Grant> acquire(OptionalLong declaredLength, Duration wait) throws InterruptedException {
        int want = declaredLength.isPresent() && declaredLength.getAsLong() >= 0
            ? (int) Math.min(maxBodyKib, kib(declaredLength.getAsLong())) : maxBodyKib;
        int units = Math.max(1, want);
        if (!kib.tryAcquire(units, wait.toMillis(), TimeUnit.MILLISECONDS)) {
            return Optional.empty();
        }
        return Optional.of(new Grant(units));
    }

    private static int kib(long bytes) {
        return (int) Math.min(Integer.MAX_VALUE, (bytes + UNIT - 1) / UNIT);
    }

    /** Room held for one request; {@link #close} gives it back (idempotent). */
    final class Grant implements AutoCloseable {
        private int units;

        private Grant(int units) {
            this.units = units;
        }

        @Override
        public synchronized void close() {
            if (units > 0) {
                kib.release(units);
                units = 0;
            }
        }
    }
}

package dev.jetsink.internal.delivery;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * {@code RUSTFS_NOTIFY_TARGET_STREAM_CONCURRENCY} (DESIGN.md "Delivery"): one fair semaphore shared
 * by every notify dispatcher. A permit covers one fill of a publish window and is released when
 * that fill's publishes have all completed; it is never held across a backoff sleep.
 */
public final class StreamConcurrency {

    private final Semaphore permits;
    private final int limit;

    public StreamConcurrency(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("stream concurrency must be at least 1, got " + limit);
        }
        this.limit = limit;
        this.permits = new Semaphore(limit, true);
    }

    /** No limit: for audit dispatchers and targets that are not notify targets. */
    public static StreamConcurrency unlimited() {
        return new StreamConcurrency(Integer.MAX_VALUE / 2);
    }

    /** Waits up to {@code millis} for a permit, honouring arrival order. */
    boolean tryAcquire(long millis) throws InterruptedException {
        return permits.tryAcquire(millis, TimeUnit.MILLISECONDS);
    }

    void release() {
        permits.release();
    }

    public int limit() {
        return limit;
    }
}

package dev.jetsink;

import dev.jetsink.internal.config.TargetKind;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The receipts thread of one sink ({@code jetsink-receipts-<kind>}): the futures a sink hands out
 * (a send's receipt, a receipt's delivery) complete here, never on the queue's writer or a
 * delivery thread. A completion handed over after close runs on the handing thread rather than
 * being dropped, so no future is left pending.
 *
 * <p>Its futures refuse to be waited on from this thread while not done: this thread is the one
 * that would complete them, so the wait could only end in a deadlock. The caller gets an
 * {@link IllegalStateException} saying so instead.
 */
final class Receipts {

    private final ThreadPoolExecutor executor;

    Receipts(TargetKind kind) {
        this.executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
            r -> new Worker(r, this, "jetsink-receipts-" + kind.label()), (task, pool) -> task.run());
    }

    Executor executor() {
        return executor;
    }

    /** A new future of this sink, completed here. */
    <T> CompletableFuture<T> newFuture() {
        return new Future<>(this);
    }

    /** Stops the thread after the completions already handed over; waits up to {@code millis}. */
    void close(long millis) {
        executor.shutdown();
        try {
            executor.awaitTermination(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean onThisThread() {
        return Thread.currentThread() instanceof Worker w && w.owner == this;
    }

    private static final class Worker extends Thread {
        private final Receipts owner;

        Worker(Runnable task, Receipts owner, String name) {
            super(task, name);
            this.owner = owner;
            setDaemon(true);
        }
    }

    /** A future of this sink: its dependents are too, and waiting on it from the receipts thread is refused. */
    private static final class Future<T> extends CompletableFuture<T> {
        private final Receipts owner;

        Future(Receipts owner) {
            this.owner = owner;
        }

        @Override
        public <U> CompletableFuture<U> newIncompleteFuture() {
            return new Future<>(owner);
        }

        @Override
        public T join() {
            refuseWaitOnReceiptsThread();
            return super.join();
        }

        @Override
        public T get() throws InterruptedException, ExecutionException {
            refuseWaitOnReceiptsThread();
            return super.get();
        }

        @Override
        public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
            refuseWaitOnReceiptsThread();
            return super.get(timeout, unit);
        }

        private void refuseWaitOnReceiptsThread() {
            if (!isDone() && owner.onThisThread()) {
                throw new IllegalStateException("a receipt cannot be waited for on the sink's receipts thread, which"
                    + " completes it: chain the work (thenCompose) or wait on another thread");
            }
        }
    }
}

package dev.jetsink.internal.nats;

import io.nats.client.Options;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/** The threads jnats runs a connection on: daemon pools, named after the connection, that end when idle. */
final class NatsThreads {
    /** How long an idle pool thread lives; after a connection closes its threads end within this. */
    static final Duration IDLE_THREAD_KEEP_ALIVE = Duration.ofSeconds(1);
    /** jnats' own timer pool size: ping, request cleanup and the socket write watch. */
    private static final int TIMER_THREADS = 3;

    private NatsThreads() {
    }

    /**
     * jnats' own threads are not daemons, so a sink its caller never closed (an exception on the
     * way out of {@code main}) would keep the JVM running. jnats is given daemon pools instead,
     * before the customizer runs (an embedder's own pools still win): the worker pool (socket
     * reader and writer, dispatchers), the timers, and one in-order thread each for connecting
     * and for callbacks. jnats never shuts down a pool it was given, nor, in 2.26.2, the executors
     * it builds from given thread factories (so those would leak a thread per connection), so
     * every pool here lets its threads end once idle: after a close (jnats cancels its timer tasks
     * then) they are gone within {@link #IDLE_THREAD_KEEP_ALIVE}. What jnats' close did with its
     * own callback executor, running the queued callbacks before returning, {@link ConnectionFactory#close} does, through {@link #awaitCallbacks}.
     */
    static void install(Options.Builder b, String connectionName) {
        String name = "jetsink-nats-" + threadLabel(connectionName);
        ThreadPoolExecutor work = new ThreadPoolExecutor(0, Integer.MAX_VALUE, IDLE_THREAD_KEEP_ALIVE.toMillis(),
                TimeUnit.MILLISECONDS, new SynchronousQueue<>(), daemons(name + "-io"));
        ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(TIMER_THREADS, daemons(name + "-timer"));
        timers.setRemoveOnCancelPolicy(true);
        timers.setKeepAliveTime(IDLE_THREAD_KEEP_ALIVE.toMillis(), TimeUnit.MILLISECONDS);
        timers.allowCoreThreadTimeOut(true);
        b.executor(work)
                .scheduledExecutor(timers)
                .connectExecutor(inOrder(daemons(name + "-connect")))
                .callbackExecutor(inOrder(daemons(name + "-callback")));
    }

    /** One thread, tasks in order (jnats' connection events must arrive in order), ending when idle. */
    private static ThreadPoolExecutor inOrder(ThreadFactory threads) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, IDLE_THREAD_KEEP_ALIVE.toMillis(), TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), threads);
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** {@code jetsink notify primary:nats} → {@code notify-primary:nats}: the name without the repeated product. */
    static String threadLabel(String connectionName) {
        String label = connectionName.replaceFirst("^jetsink[\\s-]*", "").trim().replaceAll("\\s+", "-");
        return label.isEmpty() ? "connection" : label;
    }

    private static ThreadFactory daemons(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Waits, at most a connect timeout as jnats does, for a task queued behind every callback so far. */
    static void awaitCallbacks(Options options) throws InterruptedException {
        try {
            options.getCallbackExecutor().submit(() -> { })
                    .get(options.getConnectionTimeout().toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            // a callback still running (or an embedder's executor shut down): go on, as jnats would
        }
    }
}

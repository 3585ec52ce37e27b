package dev.jetsink.internal.targets;

import dev.jetsink.internal.delivery.StreamConcurrency;
import dev.jetsink.internal.publish.Tracing;
import dev.jetsink.internal.time.ScheduledSleeper;
import dev.jetsink.internal.time.Sleeper;
import dev.jetsink.lifecycle.LifecycleListener;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * What targets share at run time: the clock and sleeper (injected so tests never wait out a real
 * backoff), lifecycle listeners, the notify stream-concurrency semaphore and a scheduler for
 * periodic work (failed-store maintenance, init retries).
 *
 * @param backoffScale multiplies the 4/8/16/32 s backoff sleeps ({@code JETSINK_BACKOFF_SCALE})
 * @param natsOptions  applied to every connection's jnats options after the configured ones (an
 *                     embedder's NKey or auth handler); reconnecting forever and the listeners
 *                     jetsink needs are set again afterwards
 */
public record TargetRuntime(Clock clock, Sleeper sleeper, LifecycleListener listener,
                            StreamConcurrency notifyConcurrency, double backoffScale,
                            ScheduledExecutorService scheduler,
                            java.util.function.Consumer<io.nats.client.Options.Builder> natsOptions,
                            Tracing tracing) {

    public TargetRuntime {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(sleeper, "sleeper");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(notifyConcurrency, "notifyConcurrency");
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(natsOptions, "natsOptions");
        Objects.requireNonNull(tracing, "tracing");
    }

    public TargetRuntime(Clock clock, Sleeper sleeper, LifecycleListener listener, StreamConcurrency notifyConcurrency,
                         double backoffScale, ScheduledExecutorService scheduler) {
        this(clock, sleeper, listener, notifyConcurrency, backoffScale, scheduler, b -> { }, Tracing.NONE);
    }

    /** Real time, a daemon scheduler, the default concurrency of 20, no listener. */
    public static TargetRuntime system() {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "jetsink-scheduler");
            t.setDaemon(true);
            return t;
        });
        scheduler.setRemoveOnCancelPolicy(true);
        return new TargetRuntime(Clock.systemUTC(), new ScheduledSleeper(scheduler), LifecycleListener.NONE,
            new StreamConcurrency(20), 1.0, scheduler);
    }

    public TargetRuntime withClock(Clock c, Sleeper s) {
        return new TargetRuntime(c, s, listener, notifyConcurrency, backoffScale, scheduler, natsOptions, tracing);
    }

    public TargetRuntime withListener(LifecycleListener l) {
        return new TargetRuntime(clock, sleeper, l, notifyConcurrency, backoffScale, scheduler, natsOptions, tracing);
    }

    public TargetRuntime withNotifyConcurrency(StreamConcurrency c) {
        return new TargetRuntime(clock, sleeper, listener, c, backoffScale, scheduler, natsOptions, tracing);
    }

    /** Spans around enqueue and publish ({@link Tracing#NONE} unless given). */
    public TargetRuntime withTracing(Tracing t) {
        return new TargetRuntime(clock, sleeper, listener, notifyConcurrency, backoffScale, scheduler, natsOptions, t);
    }

    public TargetRuntime withNatsOptions(java.util.function.Consumer<io.nats.client.Options.Builder> customizer) {
        return new TargetRuntime(clock, sleeper, listener, notifyConcurrency, backoffScale, scheduler, customizer, tracing);
    }
}

package dev.jetsink.internal.targets;

import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.delivery.Dispatcher;
import dev.jetsink.internal.nats.ConnectFailedException;
import dev.jetsink.internal.nats.ValidationResult;
import dev.jetsink.internal.nats.Verdict;
import dev.jetsink.internal.publish.StreamCheck;
import dev.jetsink.internal.publish.TargetConnection;
import dev.jetsink.internal.queue.DeferredQueue;
import dev.jetsink.internal.queue.QueueStore;
import dev.jetsink.internal.time.Deadline;
import dev.jetsink.lifecycle.ResetReason;
import io.nats.client.Connection;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A target's start and stop (DESIGN.md "Stream validation and verdict"): the startup line, one
 * connect and validation, the dispatcher thread. A sealed stream fails init: the target takes no
 * events and retries its init every 60 s. A queue directory the disk refused at open is tried again
 * every 10 s. Any other failure leaves a queue-backed target queueing, to deliver once the broker or
 * stream is fixed.
 */
final class TargetStartup {

    // the start and stop lines are the target's own: they keep its logger name
    private static final Logger log = LoggerFactory.getLogger(TargetStartup.class);
    static final Duration INIT_RETRY = Duration.ofSeconds(60);
    static final Duration QUEUE_RETRY = Duration.ofSeconds(10);

    private final TargetConfig config;
    private final TargetRuntime runtime;
    private final TargetConnection link;
    private final Optional<StreamCheck> check;
    private final Verdict verdict;
    private final Intake intake;
    private final Optional<QueueStore> queue;
    private final Optional<Dispatcher> dispatcher;
    private boolean started;
    private boolean closing;
    private ScheduledFuture<?> initRetry;
    private ScheduledFuture<?> queueRetry;
    private Thread thread;

    TargetStartup(TargetConfig config, TargetRuntime runtime, TargetConnection link, Optional<StreamCheck> check,
                  Verdict verdict, Intake intake, Optional<QueueStore> queue, Optional<Dispatcher> dispatcher) {
        this.config = config;
        this.runtime = runtime;
        this.link = link;
        this.check = check;
        this.verdict = verdict;
        this.intake = intake;
        this.queue = queue;
        this.dispatcher = dispatcher;
    }

    synchronized void start() {
        if (started || closing) {
            return;
        }
        started = true;
        log.info("target starting target=\"{}\" kind={} id={} path={} address={} subject={} stream={} "
                + "ack_timeout_secs={} queue_dir={} queue_limit={} publish_window={}",
            config.displayId(), config.kind().label(), config.id(), config.path(), String.join(",", config.servers()),
            config.subject(), config.streamName().orElse("-"), config.ackTimeout().toSeconds(),
            config.queuePath().map(Object::toString).orElse("-"), config.queueLimit(), config.publishWindow());
        queue.flatMap(DeferredQueue::unavailable).ifPresent(reason -> {
            log.error("queue directory cannot be opened, the target refuses events until it can "
                    + "(tried again every {} s) target=\"{}\" queue_dir={} error=\"{}\"",
                QUEUE_RETRY.toSeconds(), config.displayId(), config.queuePath().orElseThrow(), reason);
            queueRetry = runtime.scheduler().scheduleWithFixedDelay(this::retryQueue,
                QUEUE_RETRY.toMillis(), QUEUE_RETRY.toMillis(), TimeUnit.MILLISECONDS);
        });
        if (initialize()) {
            startDispatcher();
        } else {
            initRetry = runtime.scheduler().scheduleWithFixedDelay(this::retryInit,
                INIT_RETRY.toMillis(), INIT_RETRY.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Connects and validates once; false only when the stream is sealed. */
    private boolean initialize() {
        Deadline deadline = Deadline.after(config.ackTimeout());
        Connection c;
        try {
            c = link.await(deadline);
        } catch (ConnectFailedException e) {
            log.error("NATS connection failed at init, events queue until it connects target=\"{}\" reason={} error=\"{}\"",
                config.displayId(), e.reason(), e.getMessage());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
        if (check.isEmpty()) {
            return true;
        }
        ValidationResult result = check.get().validateNow(c, deadline);
        if (result instanceof ValidationResult.Failed f && f.has(ValidationResult.Cause.SEALED)) {
            intake.initFailed(Optional.of("stream " + check.get().stream() + " is sealed"));
            log.error("target init failed, it takes no events and retries in {} s target=\"{}\" error=\"{}\"",
                INIT_RETRY.toSeconds(), config.displayId(), intake.initFailure().orElseThrow());
            return false;
        }
        return true;
    }

    /** One retry of a failed init (the scheduler calls it every 60 s). */
    synchronized void retryInit() {
        if (closing || intake.initFailure().isEmpty() || thread != null) {
            return;
        }
        verdict.reset(ResetReason.NEW_CONNECTION);
        // The failure stays set while the retry runs (up to the ack timeout): no event is queued
        // for the target until its init has succeeded (DESIGN.md "Stream validation and verdict").
        if (initialize()) {
            intake.initFailed(Optional.empty());
            log.info("target init succeeded on retry target=\"{}\"", config.displayId());
            initRetry.cancel(false);
            startDispatcher();
        }
    }

    /** One retry of opening a queue directory the disk refused at start (the scheduler calls it every 10 s). */
    synchronized void retryQueue() {
        if (closing || !(queue.orElse(null) instanceof DeferredQueue deferred)) {
            return;
        }
        if (deferred.tryOpen()) {
            log.info("queue directory opened, the target accepts events again target=\"{}\" queue_dir={} queued={}",
                config.displayId(), config.queuePath().orElseThrow(), deferred.liveCount());
            queueRetry.cancel(false);
            dispatcher.ifPresent(Dispatcher::wake);
        }
    }

    private void startDispatcher() {
        dispatcher.ifPresent(d -> {
            thread = new Thread(d, "jetsink-dispatch-" + config.kind().label() + "-" + config.sanitizedId());
            thread.setDaemon(true);
            thread.start();
        });
    }

    /** Stops retrying and delivering, giving publishes in flight up to {@code grace}. */
    void stop(Duration grace) {
        Thread running;
        synchronized (this) {
            closing = true;
            if (initRetry != null) {
                initRetry.cancel(false);
            }
            if (queueRetry != null) {
                queueRetry.cancel(false);
            }
            running = thread;
        }
        // A dispatcher that never ran (init failed, or never started) would never answer the stop.
        if (running != null) {
            dispatcher.ifPresent(d -> d.stop(grace).join());
            try {
                running.join(grace.toMillis() + 1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

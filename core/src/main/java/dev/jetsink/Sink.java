package dev.jetsink;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.metrics.SinkMetrics;
import dev.jetsink.internal.queue.QueueStore;
import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.internal.targets.TargetCounters;
import dev.jetsink.internal.targets.TargetHealth;
import dev.jetsink.internal.targets.Targets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One NATS target, embedded: events go into its durable local queue and on to NATS Core or a
 * JetStream stream, with two signals per event. {@link #send} completes with a {@link Receipt}
 * once the event is fsynced in the queue (it survives a crash of this process from then on);
 * {@link Receipt#delivered()} completes once the stream has acknowledged it. Made by
 * {@link Jetsink}; thread-safe; {@link #close()} stops every thread it started.
 *
 * @param <E> the event type: {@link dev.jetsink.event.S3EventRecord} or {@link dev.jetsink.event.AuditEntry}
 */
public final class Sink<E> implements AutoCloseable {

    private final Targets targets;
    private final NatsTarget target;
    private final Function<E, OutboundEvent> envelope;
    private final ReceiptBook book;
    private final ExecutorService callbacks;
    private final ScheduledExecutorService scheduler;
    private final Optional<SinkMetrics> metrics;
    private volatile boolean closed;

    Sink(Targets targets, Function<E, OutboundEvent> envelope, ReceiptBook book, ExecutorService callbacks,
         ScheduledExecutorService scheduler, Optional<SinkMetrics> metrics) {
        this.targets = targets;
        this.target = targets.targets().get(0);
        this.envelope = envelope;
        this.book = book;
        this.callbacks = callbacks;
        this.scheduler = scheduler;
        this.metrics = metrics;
        metrics.ifPresent(m -> m.register(target));
    }

    /**
     * Queues {@code event}. The future completes with its receipt once the event is durable, or
     * fails: {@link QueueFullException} at the queue limit,
     * {@link TargetUnavailableException} while the stream is sealed or the queue
     * directory cannot be written, or {@link QueueStoreException} when the write or its fsync fails.
     * A failed send queued nothing.
     *
     * @throws IllegalStateException when the sink is closed
     * @throws NullPointerException when {@code event} is null
     * @param event the event
     * @return the receipt, once the event is durable
     */
    public CompletableFuture<Receipt> send(E event) {
        return queue(envelope.apply(requireEvent(event)));
    }

    /**
     * Like {@link #send(Object)} with the caller's own {@code Nats-Msg-Id} (1 to 128 printable
     * ASCII characters, no spaces): sending the same event again with the same id, after a crash
     * of the caller, stores it once.
     *
     * @throws IllegalArgumentException when {@code msgId} is not such an id
     * @param event the event
     * @param msgId the caller's {@code Nats-Msg-Id}
     * @return the receipt, once the event is durable
     */
    public CompletableFuture<Receipt> send(E event, String msgId) {
        return queue(envelope.apply(requireEvent(event)).withMsgId(Objects.requireNonNull(msgId, "msgId")));
    }

    /**
     * Like {@link #send(Object)}, carrying the W3C trace context the event began in: it is stored
     * with the entry and published as the message's {@code traceparent} and {@code tracestate}
     * headers.
     *
     * @param event the event
     * @param trace its trace context
     * @return the receipt, once the event is durable
     */
    public CompletableFuture<Receipt> send(E event, TraceContext trace) {
        return queue(envelope.apply(requireEvent(event)).withTrace(Optional.of(Objects.requireNonNull(trace, "trace"))));
    }

    /**
     * {@link #send(Object, String)} and {@link #send(Object, TraceContext)} together.
     *
     * @param event the event
     * @param msgId the caller's {@code Nats-Msg-Id}
     * @param trace its trace context
     * @return the receipt, once the event is durable
     * @throws IllegalArgumentException when {@code msgId} is not a valid msg id
     */
    public CompletableFuture<Receipt> send(E event, String msgId, TraceContext trace) {
        return queue(envelope.apply(requireEvent(event)).withMsgId(Objects.requireNonNull(msgId, "msgId"))
            .withTrace(Optional.of(Objects.requireNonNull(trace, "trace"))));
    }

    private static <T> T requireEvent(T event) {
        return Objects.requireNonNull(event, "event must not be null: send an S3EventRecord or AuditEntry");
    }

    private CompletableFuture<Receipt> queue(OutboundEvent event) {
        if (closed) {
            throw new IllegalStateException("sink " + target.displayId() + " is closed");
        }
        return target.enqueue(event).thenApply(this::receipt);
    }

    private Receipt receipt(QueuedEntry entry) {
        return new Receipt(entry.msgId(), entry.seq(), book.track(entry.seq(), entry.msgId()));
    }

    /**
     * Waits until the queue is empty: every event queued so far (by this process or an earlier
     * one) is delivered or, rejected for good, in the failed-events store.
     *
     * @return true once the queue is empty; false when {@code timeout} passed first, or when the
     *     sink is (or gets) closed, since a closed sink delivers nothing more
     * @param timeout how long to wait at most
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean drain(Duration timeout) throws InterruptedException {
        Objects.requireNonNull(timeout, "timeout");
        if (closed) {
            return false;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean empty = book.await(() -> closed || target.queueLength() == 0, deadline);
        return empty && !closed;
    }

    /**
     * Waits until the sink can deliver: connected to a server and, on the JetStream path, the
     * stream found and meeting jetsink's requirements. {@link SinkBuilder#build()} connects in the
     * background and a send only queues, so a wrong address or an unsuitable stream shows first
     * here: call this once after building to fail loudly at setup.
     *
     * @param timeout how long to wait for a connection at most
     * @throws SinkNotReadyException at once when the stream fails validation (the message gives
     *     the requirement and the numbers, e.g. a duplicate window too short) or the target is
     *     unavailable; after {@code timeout} when no connection was made (the message names the
     *     servers and the last cause)
     * @throws IllegalStateException when the sink is closed
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public void awaitReady(Duration timeout) throws SinkNotReadyException, InterruptedException {
        Objects.requireNonNull(timeout, "timeout");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (closed) {
                throw new IllegalStateException("sink " + target.displayId() + " is closed");
            }
            TargetHealth h = target.health();
            switch (h.status()) {
                case ONLINE:
                    return;
                case ERROR:
                case DISABLED:
                    throw new SinkNotReadyException(target.displayId() + " cannot deliver: " + h.reason(), false);
                default:
                    break;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                String why = target.connectFailure().orElse(h.reason());
                throw new SinkNotReadyException(target.displayId() + " not ready within " + timeout.toMillis()
                    + " ms: " + why, true);
            }
            // The target connects and validates on its own threads; look again shortly.
            Thread.sleep(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 100)));
        }
    }

    /**
     * Health, state, queue length, verdict and last error of the target.
     *
     * @return a snapshot; the health check may run a live stream validation
     */
    public SinkStatus status() {
        TargetHealth h = target.health();
        SinkStatus.Health health = switch (h.status()) {
            case ONLINE -> SinkStatus.Health.ONLINE;
            case OFFLINE -> SinkStatus.Health.OFFLINE;
            case ERROR, DISABLED -> SinkStatus.Health.ERROR;
        };
        return new SinkStatus(health, h.reason(), SinkStatus.State.valueOf(target.state().name()), target.queueLength(),
            SinkStatus.Verdict.valueOf(target.verdictLabel().toUpperCase(Locale.ROOT)),
            target.lastError().map(TargetCounters.LastError::text), target.connectedServer());
    }

    /**
     * The target's name in logs and metrics, e.g. {@code notify _:nats}: display text for people
     * and log lines, not a value to parse (its format may change).
     *
     * @return the name
     */
    public String target() {
        return target.displayId();
    }

    /**
     * Events in the queue not yet delivered.
     *
     * @return the number of live entries
     */
    public long queueLength() {
        return target.queueLength();
    }

    /**
     * Stops delivering, giving publishes in flight up to {@code grace}. Events still queued stay in
     * the queue directory for the next sink or daemon; their receipts fail with
     * {@link NotDeliveredException.Reason#STILL_QUEUED}. Idempotent.
     *
     * @param grace how long publishes in flight may take to finish
     */
    public void close(Duration grace) {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            targets.close(grace);
        } finally {
            metrics.ifPresent(m -> m.unregister(target));
            book.close();
            callbacks.shutdown();
            scheduler.shutdownNow();
            try {
                callbacks.awaitTermination(grace.toMillis() + 1000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** {@link #close(Duration)} with 5 s of grace. */
    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }

    /** The newest queued sequence at open: outcomes at or below it belong to an earlier run. */
    static long newestQueued(QueueStore queue) {
        long after = 0;
        while (true) {
            List<QueuedEntry> page = queue.live(after, 4096);
            if (page.isEmpty()) {
                return after;
            }
            after = page.get(page.size() - 1).seq();
            if (page.size() < 4096) {
                return after;
            }
        }
    }

    /** The receipt thread: futures complete here, never on a delivery thread. */
    static ExecutorService receiptThread(TargetKind kind) {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "jetsink-receipts-" + kind.label());
            t.setDaemon(true);
            return t;
        });
    }
}

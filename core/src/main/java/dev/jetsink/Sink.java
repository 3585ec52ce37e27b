package dev.jetsink;

import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.metrics.SinkMetrics;
import dev.jetsink.internal.queue.QueueStore;
import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.internal.targets.TargetCounters;
import dev.jetsink.internal.targets.TargetHealth;
import dev.jetsink.internal.targets.TargetState;
import dev.jetsink.internal.targets.Targets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.UnaryOperator;

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
    private final Receipts receipts;
    private final ScheduledExecutorService scheduler;
    private final Optional<SinkMetrics> metrics;
    private volatile boolean closed;

    Sink(Targets targets, Function<E, OutboundEvent> envelope, ReceiptBook book, Receipts receipts,
         ScheduledExecutorService scheduler, Optional<SinkMetrics> metrics) {
        this.targets = targets;
        this.target = targets.targets().get(0);
        this.envelope = envelope;
        this.book = book;
        this.receipts = receipts;
        this.scheduler = scheduler;
        this.metrics = metrics;
        metrics.ifPresent(m -> m.register(target));
    }

    /**
     * Queues {@code event}. The future completes with its receipt once the event is durable, or
     * fails; every refusal arrives in the future, none is thrown:
     * {@link QueueFullException} at the queue limit; {@link TargetUnavailableException} while the
     * stream is sealed, the queue directory cannot be written or the sink is closed (its
     * {@link TargetUnavailableException#reason() reason} says which); {@link QueueStoreException}
     * when the write or its fsync fails; {@link IllegalArgumentException} when the event is too
     * large to be stored (a record over 64 MiB, or a bucket, key, event name or content type over
     * 65 535 bytes). A failed send queued nothing.
     *
     * <p>The future completes on the sink's receipts thread ({@code jetsink-receipts-*}), which
     * also completes {@link Receipt#delivered()}: a stage chained without an executor runs there,
     * or on the calling thread when the future is already complete. The queue's writer never runs
     * caller code, so a slow stage cannot stop events being queued or delivered, but it does hold
     * up every other receipt of this sink: run slow work on an executor of your own
     * ({@code thenApplyAsync(work, executor)}).
     *
     * <p>An event built without an event time or sequencer gets both at build (see
     * {@link dev.jetsink.event.S3EventRecord#builder}), so two events alike in every other field
     * are still two messages under the default content msg ids; two sends of the same built event
     * are one message in the stream (the second is acknowledged as a duplicate).
     *
     * @throws NullPointerException when {@code event} is null
     * @param event the event
     * @return the receipt, once the event is durable
     */
    public CompletableFuture<Receipt> send(E event) {
        return queue(event, UnaryOperator.identity());
    }

    /**
     * Like {@link #send(Object)} with the caller's own {@code Nats-Msg-Id} (1 to 128 printable
     * ASCII characters, no spaces): sending the same event again with the same id, after a crash
     * of the caller, stores it once. Refusals arrive in the future as for {@link #send(Object)},
     * and an {@link IllegalArgumentException} when {@code msgId} is not such an id.
     *
     * @throws NullPointerException when {@code event} or {@code msgId} is null
     * @param event the event
     * @param msgId the caller's {@code Nats-Msg-Id}
     * @return the receipt, once the event is durable
     */
    public CompletableFuture<Receipt> send(E event, String msgId) {
        Objects.requireNonNull(msgId, "msgId");
        return queue(event, e -> e.withMsgId(msgId));
    }

    /**
     * Like {@link #send(Object)}, carrying the W3C trace context the event began in: it is stored
     * with the entry and published as the message's {@code traceparent} and {@code tracestate}
     * headers. Refusals arrive in the future as for {@link #send(Object)}.
     *
     * @throws NullPointerException when {@code event} or {@code trace} is null
     * @param event the event
     * @param trace its trace context
     * @return the receipt, once the event is durable
     */
    public CompletableFuture<Receipt> send(E event, TraceContext trace) {
        Optional<TraceContext> context = Optional.of(Objects.requireNonNull(trace, "trace"));
        return queue(event, e -> e.withTrace(context));
    }

    /**
     * {@link #send(Object, String)} and {@link #send(Object, TraceContext)} together; refusals
     * arrive in the future as for those.
     *
     * @throws NullPointerException when an argument is null
     * @param event the event
     * @param msgId the caller's {@code Nats-Msg-Id}
     * @param trace its trace context
     * @return the receipt, once the event is durable
     */
    public CompletableFuture<Receipt> send(E event, String msgId, TraceContext trace) {
        Objects.requireNonNull(msgId, "msgId");
        Optional<TraceContext> context = Optional.of(Objects.requireNonNull(trace, "trace"));
        return queue(event, e -> e.withMsgId(msgId).withTrace(context));
    }

    private CompletableFuture<Receipt> queue(E event, UnaryOperator<OutboundEvent> extras) {
        Objects.requireNonNull(event, "event must not be null: send an S3EventRecord or AuditEntry");
        if (closed) {
            return CompletableFuture.failedFuture(new TargetUnavailableException(TargetUnavailableException.Reason.CLOSED,
                "sink " + target.displayId() + " is closed"));
        }
        OutboundEvent outbound;
        try {
            outbound = extras.apply(envelope.apply(event));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        // the queue completes its future on the thread that wrote the record; stages chained by the
        // caller run on the receipts thread instead, so none of them can hold up the queue's writer
        CompletableFuture<Receipt> receipt = receipts.newFuture();
        target.enqueue(outbound).whenCompleteAsync((entry, failure) -> {
            if (failure != null) {
                receipt.completeExceptionally(failure);
            } else {
                receipt.complete(receipt(entry));
            }
        }, receipts.executor());
        return receipt;
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
     *     the requirement and the numbers, e.g. a duplicate window too short), the target is
     *     unavailable, or the connection failed in a way waiting will not mend (refused: nothing
     *     listens at the address; an unknown host; credentials or TLS refused); after
     *     {@code timeout} when no connection was made for another reason, such as a timeout (the
     *     message names the servers once, and the last cause)
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
            if (target.connectFailureNeedsAFix()) {
                Optional<String> why = target.connectFailure();
                if (why.isPresent()) {
                    throw new SinkNotReadyException(target.displayId() + " cannot connect: " + why.get(), false);
                }
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
     * @return a snapshot of what the sink knows; it asks the server nothing and logs nothing (a
     *     stream not validated since connecting shows as offline until a publish or
     *     {@link #awaitReady} validates it)
     */
    public SinkStatus status() {
        TargetHealth h = target.healthAsKnown();
        SinkStatus.Health health = switch (h.status()) {
            case ONLINE -> SinkStatus.Health.ONLINE;
            case OFFLINE -> SinkStatus.Health.OFFLINE;
            case ERROR, DISABLED -> SinkStatus.Health.ERROR;
        };
        return new SinkStatus(health, h.reason(), state(target.state()), target.queueLength(),
            target.verdict(),
            target.lastError().map(TargetCounters.LastError::text), target.connectedServer());
    }

    private static SinkStatus.State state(TargetState state) {
        return switch (state) {
            case DELIVERING -> SinkStatus.State.DELIVERING;
            case IDLE -> SinkStatus.State.IDLE;
            case STALLED -> SinkStatus.State.STALLED;
            case FAILING -> SinkStatus.State.FAILING;
            case DEGRADED -> SinkStatus.State.DEGRADED;
        };
    }

    /**
     * The target's name in logs and metrics, e.g. {@code notify default:nats} (a sink configured
     * with suffixed keys shows their id, e.g. {@code notify primary:nats}): display text for people
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
     * the queue directory for the next sink or jetsink process; their receipts fail with
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
            scheduler.shutdownNow();
            receipts.close(grace.toMillis() + 1000);
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
}

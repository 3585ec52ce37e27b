package dev.jetsink.internal.target;

import dev.jetsink.TargetUnavailableException;

import dev.jetsink.TraceContext;
import dev.jetsink.internal.config.SubjectTemplate;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.nats.ConnectFailedException;
import dev.jetsink.internal.nats.ConnectionFactory;
import dev.jetsink.internal.nats.ConnectionSettings;
import dev.jetsink.internal.nats.OutcomeClassifier;
import dev.jetsink.internal.nats.ValidationResult;
import dev.jetsink.internal.nats.Verdict;
import dev.jetsink.internal.queue.DeferredQueue;
import dev.jetsink.internal.queue.EntryAttributes;
import dev.jetsink.QueueFullException;
import dev.jetsink.internal.queue.QueueOptions;
import dev.jetsink.internal.queue.QueueStore;
import dev.jetsink.QueueStoreException;
import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.internal.queue.Reservation;
import dev.jetsink.internal.queue.SegmentedQueue;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.LifecycleListener;
import dev.jetsink.lifecycle.ResetReason;
import io.nats.client.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One NATS target, notify or audit, on the Core or the JetStream path: its queue, connection,
 * stream verdict, failed-events store and dispatcher. Events are accepted with {@link #send} once
 * durably queued and delivered in the background; closing keeps every queued entry for the next
 * start (DESIGN.md "Delivery").
 */
public final class NatsTarget implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(NatsTarget.class);
    static final Duration INIT_RETRY = Duration.ofSeconds(60);
    static final Duration QUEUE_RETRY = Duration.ofSeconds(10);
    private static final Duration DIRECT_PUBLISH_BOUND = Duration.ofSeconds(30);

    private final TargetConfig config;
    private final TargetRuntime runtime;
    private final LifecycleListener events;
    private final Optional<QueueStore> queue;
    private final Optional<FailedEventStore> failedStore;
    private final Verdict verdict = new Verdict();
    private final TargetConnection link;
    private final Optional<StreamCheck> check;
    private final OutcomeHandling outcomes;
    private final Optional<Dispatcher> dispatcher;
    private final Optional<Publisher> publisher;
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong failedMessages = new AtomicLong();
    private final AtomicLong newestSeq = new AtomicLong();
    private final AtomicLong replayed = new AtomicLong();
    private final AtomicLong resolved = new AtomicLong();
    private final AtomicLong duplicateAcks = new AtomicLong();
    private final long startedMs;
    private volatile long lastAckMs;
    private volatile long lastWriteFailureMs;
    private volatile Optional<LastError> lastError = Optional.empty();
    private volatile Optional<String> initFailure = Optional.empty();
    private volatile boolean started;
    private ScheduledFuture<?> initRetry;
    private ScheduledFuture<?> queueRetry;
    private Thread thread;
    private boolean closing;

    private final SubjectTemplate subjectTemplate;
    private final EntrySubjects subjects;

    private NatsTarget(TargetConfig config, TargetRuntime runtime, Optional<QueueStore> queue) {
        this.config = config;
        this.subjectTemplate = config.subjectTemplate();
        this.subjects = new EntrySubjects(subjectTemplate, config.id());
        this.runtime = runtime;
        this.events = LifecycleListener.fanOut(new DeliveryLog(), new LifecycleListener() {
            @Override
            public void movedToFailedStore(LifecycleEvent.MovedToFailedStore e) {
                failedMessages.incrementAndGet();
                lastError = Optional.of(new LastError(e.outcome().detail(), runtime.clock().instant()));
            }

            @Override
            public void entryResolved(LifecycleEvent.EntryResolved e) {
                resolved.incrementAndGet();
                if (e.duplicate()) {
                    duplicateAcks.incrementAndGet();
                }
                lastAckMs = runtime.clock().millis();
            }

            @Override
            public void attemptFailed(LifecycleEvent.AttemptFailed e) {
                lastError = Optional.of(new LastError(e.outcome().detail(), runtime.clock().instant()));
            }
        }, runtime.listener());
        this.startedMs = runtime.clock().millis();
        this.queue = queue;
        String target = config.displayId();
        OutcomeClassifier classifier = config.jetstreamEnabled()
            ? OutcomeClassifier.forJetStream(config.streamName().orElseThrow())
            : OutcomeClassifier.forCore();
        this.failedStore = config.jetstreamEnabled()
            ? Optional.of(FailedEventStore.open(config.queuePath().orElseThrow(), target, runtime.clock()))
            : Optional.empty();
        this.link = new TargetConnection(listener -> connectionFactory(config, runtime, listener), new ConnectionHooks());
        this.check = config.jetstreamEnabled()
            ? Optional.of(new StreamCheck(target, config.streamName().orElseThrow(), subjectTemplate.captureSpace(),
                (int) config.ackTimeout().toSeconds(), verdict, classifier, events))
            : Optional.empty();
        StreamConcurrency concurrency = config.kind() == TargetKind.NOTIFY
            ? runtime.notifyConcurrency() : StreamConcurrency.unlimited();
        DeliveryContext ctx = new DeliveryContext(target, subjects, config.streamName().orElse(""),
            queue.orElse(null), runtime.clock(), runtime.sleeper(), new RetrySchedule(runtime.backoffScale()),
            verdict, classifier, concurrency, config.ackTimeout(), config.publishWindow(), failedStore, events,
            this::capturingStream, newestSeq::get);
        this.outcomes = new OutcomeHandling(ctx);
        if (queue.isPresent()) {
            Publisher p = check.isPresent()
                ? new JetStreamPublisher(link, check.get(), classifier, subjects, runtime.tracing(), target)
                : new CorePublisher(link, subjects, runtime.tracing(), target);
            this.publisher = Optional.of(p);
            this.dispatcher = Optional.of(new Dispatcher(ctx, p, outcomes));
        } else {
            this.publisher = Optional.empty();
            this.dispatcher = Optional.empty();
        }
    }

    /**
     * Opens the target's queue (taking its lock) and failed store; connects nothing yet.
     *
     * @throws dev.jetsink.QueueLockedException when another process holds the queue
     */
    public static NatsTarget open(TargetConfig config, TargetRuntime runtime) {
        return open(config, runtime, false);
    }

    /**
     * Like {@link #open(TargetConfig, TargetRuntime)}, except that a queue directory the disk
     * refuses (full, unwritable) does not fail: the target starts degraded, refuses events, and
     * opens its queue once the disk takes writes (at daemon start, issue #13). A locked queue or a
     * newer format still throws.
     */
    public static NatsTarget openDeferringQueue(TargetConfig config, TargetRuntime runtime) {
        return open(config, runtime, true);
    }

    private static NatsTarget open(TargetConfig config, TargetRuntime runtime, boolean deferQueue) {
        QueueOptions options = QueueOptions.withLimit(config.queueLimit()).withClock(runtime.clock());
        Optional<QueueStore> queue = config.queuePath().map(dir -> deferQueue
            ? DeferredQueue.open(dir, options) : SegmentedQueue.open(dir, options));
        try {
            return new NatsTarget(config, runtime, queue);
        } catch (RuntimeException e) {
            queue.ifPresent(QueueStore::close);
            throw e;
        }
    }

    private static ConnectionFactory connectionFactory(TargetConfig c, TargetRuntime runtime,
                                                       io.nats.client.ConnectionListener listener) {
        return ConnectionFactory.builder(ConnectionSettings.from(c))
            .options(runtime.natsOptions())
            .connectionName("jetsink " + c.displayId())
            // jnats cancels requests older than this; it must never cut a publish short of the
            // ack timeout (DESIGN.md "Delivery").
            .requestCleanupInterval(c.ackTimeout().plusSeconds(30))
            .connectionListener(listener)
            .errorListener(new NatsErrorLog(c.displayId()))
            .build();
    }

    /**
     * Logs the startup line, validates the stream (JetStream) and starts delivering. A sealed
     * stream fails init: the target takes no events and retries its init every 60 s. Any other
     * failure leaves a queue-backed target queueing, to deliver once the broker or stream is fixed.
     */
    public synchronized void start() {
        if (started || closing) {
            return;
        }
        started = true;
        log.info("target starting target=\"{}\" kind={} id={} path={} address={} subject={} stream={} "
                + "ack_timeout_secs={} queue_dir={} queue_limit={} publish_window={}",
            config.displayId(), config.kind().label(), config.id(), config.path(), String.join(",", config.servers()),
            config.subject(), config.streamName().orElse("-"), config.ackTimeout().toSeconds(),
            config.queuePath().map(Object::toString).orElse("-"), config.queueLimit(), config.publishWindow());
        queueUnavailable().ifPresent(reason -> {
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
            initFailure = Optional.of("stream " + check.get().stream() + " is sealed");
            log.error("target init failed, it takes no events and retries in {} s target=\"{}\" error=\"{}\"",
                INIT_RETRY.toSeconds(), config.displayId(), initFailure.get());
            return false;
        }
        return true;
    }

    /**
     * One retry of a failed init (the scheduler calls it every 60 s); package-private so a test can
     * trigger it instead of waiting.
     */
    synchronized void retryInit() {
        if (closing || initFailure.isEmpty() || thread != null) {
            return;
        }
        verdict.reset(ResetReason.NEW_CONNECTION);
        // The failure stays set while the retry runs (up to the ack timeout): no event is queued
        // for the target until its init has succeeded (DESIGN.md "Stream validation and verdict").
        if (initialize()) {
            initFailure = Optional.empty();
            log.info("target init succeeded on retry target=\"{}\"", config.displayId());
            initRetry.cancel(false);
            startDispatcher();
        }
    }

    /**
     * One retry of opening a queue directory the disk refused at start (the scheduler calls it
     * every 10 s); package-private so a test can trigger it instead of waiting.
     */
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

    /**
     * Why this target's queue directory cannot be opened (a full disk, an unwritable directory):
     * while present the target refuses events and reports {@link TargetState#DEGRADED}.
     */
    public Optional<String> queueUnavailable() {
        return queue.flatMap(DeferredQueue::unavailable);
    }

    /** Why the target takes no events now: its init failed, or its queue directory cannot be opened. */
    private Optional<String> unavailable() {
        Optional<String> init = initFailure;
        return init.isPresent() ? init : queueUnavailable().map(r -> "queue directory unavailable: " + r);
    }

    private void startDispatcher() {
        dispatcher.ifPresent(d -> {
            thread = new Thread(d, "jetsink-dispatch-" + config.kind().label() + "-" + config.sanitizedId());
            thread.setDaemon(true);
            thread.start();
        });
    }

    /**
     * Accepts one event: completes once it is durably queued (or, without a queue dir, published
     * and flushed on the Core path). Fails with {@link QueueFullException} at {@code queue_limit},
     * {@link TargetUnavailableException} while init has failed, or the I/O error of the append.
     */
    public CompletableFuture<Void> send(OutboundEvent event) {
        if (queue.isEmpty() && unavailable().isEmpty()) {
            return countRefusal(publishDirect(event));
        }
        return enqueue(event).thenApply(entry -> null);
    }

    /**
     * Like {@link #send} for a target with a queue dir, completing with the queued entry (its
     * sequence and msg id) once it is durable: what a library caller's receipt is made of.
     *
     * @throws IllegalStateException when the target has no queue dir
     */
    public CompletableFuture<QueuedEntry> enqueue(OutboundEvent event) {
        Optional<String> unavailable = unavailable();
        if (unavailable.isPresent()) {
            refused(1);
            return CompletableFuture.failedFuture(
                new TargetUnavailableException("target unavailable: " + unavailable.get()));
        }
        if (queue.isEmpty()) {
            throw new IllegalStateException(config.displayId() + " has no queue dir");
        }
        CompletableFuture<QueuedEntry> appended;
        Tracing.Span span = enqueueSpan(event);
        try {
            appended = queue.get().append(event.metadata(), event.payload(), msgIdOf(event), attributesOf(event, span));
        } catch (QueueFullException e) {
            span.end(e);
            return CompletableFuture.failedFuture(rejected(e));
        } catch (RuntimeException e) {
            span.end(e);
            throw e;
        }
        appended.whenComplete((entry, failure) -> span.end(failure));
        return appended.handle((entry, failure) -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
                if (cause instanceof QueueFullException qf) {
                    throw new CompletionException(rejected(qf));
                }
                writeFailed(1, cause);
                throw new CompletionException(cause);
            }
            queued(entry);
            return entry;
        });
    }

    /**
     * Holds room for {@code n} events so a request addressed to several targets is all-or-nothing
     * (DESIGN.md "Daemon"): the caller admits on every target before appending anything, and closes
     * the admission when done. Appends through the admission count and wake delivery like
     * {@link #send}.
     *
     * @throws TargetUnavailableException while init has failed (sealed stream)
     * @throws QueueFullException when {@code n} more would exceed {@code queue_limit} (counted as
     *     ingest rejections in {@code failed_messages})
     * @throws dev.jetsink.QueueStoreException when the queue is closed
     */
    public TargetAdmission admit(int n) {
        Optional<String> unavailable = unavailable();
        if (unavailable.isPresent()) {
            refused(n);
            throw new TargetUnavailableException("target unavailable: " + unavailable.get());
        }
        if (queue.isEmpty()) {
            return TargetAdmission.direct(event -> countRefusal(publishDirect(event)));
        }
        try {
            return TargetAdmission.queued(queue.get().reserve(n), this::msgIdOf, this::enqueueSpan, this::attributesOf, this::queued,
                () -> writeFailed(1, new java.io.IOException("queue write failed")));
        } catch (QueueFullException e) {
            throw rejected(e, n);
        }
    }

    /**
     * Why this target would refuse one more event now, or empty when it would take it: its init
     * failed, its queue directory cannot be opened, its queue is closed or at {@code queue_limit}.
     * A NATS outage is no reason: the queue absorbs it. Counts nothing and logs nothing, so a
     * readiness probe may ask as often as it likes.
     */
    public Optional<String> wouldRefuse() {
        Optional<String> unavailable = unavailable();
        if (unavailable.isPresent()) {
            return Optional.of("target unavailable: " + unavailable.get());
        }
        if (queue.isEmpty()) {
            return Optional.empty();
        }
        try (Reservation probe = queue.get().reserve(1)) {
            return Optional.empty();
        } catch (QueueFullException e) {
            return Optional.of("queue full: at queue_limit " + e.limit());
        } catch (QueueStoreException e) {
            return Optional.of("queue closed");
        }
    }

    /** The subject of {@code event} when the target's subject is a template (issue #15). */
    private Optional<String> subjectOf(OutboundEvent event) {
        return subjects.toStore(event.metadata());
    }

    private Tracing.Span enqueueSpan(OutboundEvent event) {
        return runtime.tracing().enqueue(config.displayId(), event.metadata(), event.trace().map(TraceContext::traceparent),
            event.trace().flatMap(TraceContext::tracestate));
    }

    /**
     * What the queue stores with {@code event} besides its msg id: its resolved subject and trace
     * context (the enqueue span's when one records, else the event's own).
     */
    private EntryAttributes attributesOf(OutboundEvent event, Tracing.Span span) {
        EntryAttributes a = EntryAttributes.NONE.withSubject(subjectOf(event));
        if (span.traceparent().isPresent()) {
            return a.withTrace(span.traceparent(), span.tracestate());
        }
        return a.withTrace(event.trace().map(TraceContext::traceparent), event.trace().flatMap(TraceContext::tracestate));
    }

    /**
     * The msg id to store with {@code event}: the caller's own when it gave one, else content-derived,
     * or minted by the queue ({@code msg_id=random}).
     */
    private Optional<String> msgIdOf(OutboundEvent event) {
        if (event.msgId().isPresent()) {
            return event.msgId();
        }
        return config.msgIdMode() == dev.jetsink.MsgIdMode.CONTENT
            ? Optional.of(ContentMsgId.of(config.kind(), config.id(), event.contentDigest()).toString())
            : Optional.empty();
    }

    private void queued(QueuedEntry entry) {
        accepted.incrementAndGet();
        newestSeq.accumulateAndGet(entry.seq(), Math::max);
        dispatcher.ifPresent(Dispatcher::wake);
    }

    private QueueFullException rejected(QueueFullException e) {
        return rejected(e, 1);
    }

    private QueueFullException rejected(QueueFullException e, int events) {
        refused(events);
        log.error("queue full, event rejected at ingest target=\"{}\" queue_limit={} events={}",
            config.displayId(), config.queueLimit(), events);
        return e;
    }

    /**
     * Counts events this target refused at ingest (queue full, a failed write or fsync, init
     * failed, a failed direct publish) in {@code failed_messages}: the sender was told they were
     * not taken (DESIGN.md, "Ingest rejections").
     */
    private void refused(int events) {
        failedMessages.addAndGet(events);
    }

    // An append the queue could not make durable: the target is degraded for a while (issue #13).
    private void writeFailed(int events, Throwable cause) {
        refused(events);
        lastWriteFailureMs = runtime.clock().millis();
        lastError = Optional.of(new LastError("queue write failed: " + cause.getClass().getSimpleName(),
            runtime.clock().instant()));
    }

    private CompletableFuture<Void> countRefusal(CompletableFuture<Void> publish) {
        return publish.whenComplete((ok, failure) -> {
            if (failure != null) {
                refused(1);
            }
        });
    }

    /**
     * A target without a queue dir publishes in the caller's path (Core only,
     * DESIGN.md "Delivery").
     */
    private CompletableFuture<Void> publishDirect(OutboundEvent event) {
        try {
            Connection c = link.await(Deadline.after(DIRECT_PUBLISH_BOUND));
            String subject = subjectOf(event).orElse(config.subject());
            Tracing.Span span = runtime.tracing().publish(config.displayId(), subject, "",
                event.trace().map(TraceContext::traceparent), event.trace().flatMap(TraceContext::tracestate));
            try {
                c.publish(subject, MessageHeaders.of(event.metadata(),
                    span.traceparent().or(() -> event.trace().map(TraceContext::traceparent)),
                    span.traceparent().isPresent() ? span.tracestate() : event.trace().flatMap(TraceContext::tracestate)),
                    event.payload());
                c.flush(DIRECT_PUBLISH_BOUND);
                span.end(null);
            } catch (Exception e) {
                span.end(e);
                throw e;
            }
            accepted.incrementAndGet();
            return CompletableFuture.completedFuture(null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(e);
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Health from the connection and the last verdict; while the verdict is UNSET this runs one
     * live validation bounded by the ack timeout (DESIGN.md "Status").
     */
    public TargetHealth health() {
        String id = config.displayId();
        Optional<String> unavailable = unavailable();
        if (unavailable.isPresent()) {
            return new TargetHealth(id, TargetHealth.Status.ERROR, unavailable.get());
        }
        Optional<Connection> c = link.current();
        if (c.isEmpty()) {
            return new TargetHealth(id, TargetHealth.Status.OFFLINE, "not connected");
        }
        if (check.isEmpty() || verdict.isPass()) {
            return new TargetHealth(id, TargetHealth.Status.ONLINE, "");
        }
        ValidationResult r = check.get().validateNow(c.get(), Deadline.after(config.ackTimeout()));
        if (r instanceof ValidationResult.Failed f) {
            boolean unreachable = f.has(ValidationResult.Cause.UNREACHABLE);
            return new TargetHealth(id, unreachable ? TargetHealth.Status.OFFLINE : TargetHealth.Status.ERROR,
                "stream validation failed: " + f.message());
        }
        return new TargetHealth(id, TargetHealth.Status.ONLINE, "");
    }

    public TargetConfig config() {
        return config;
    }

    public String displayId() {
        return config.displayId();
    }

    /** Live entries in the local queue (0 without a queue dir). */
    public long queueLength() {
        return queue.map(QueueStore::liveCount).orElse(0L);
    }

    public Optional<QueueStore> queue() {
        return queue;
    }

    public Optional<FailedEventStore> failedStore() {
        return failedStore;
    }

    /**
     * Replays records of this target's failed store into its queue, with their msg ids (issue #13;
     * see {@link FailedReplay}). The dispatcher picks them up as it would new events. An operator's
     * act only: nothing in jetsink calls this on its own.
     *
     * @throws IllegalStateException for a target without a failed store (the Core path has none)
     */
    public FailedReplay.Report replayFailed(FailedReplay.Filter filter, boolean dryRun) throws java.io.IOException {
        if (queue.isEmpty() || failedStore.isEmpty()) {
            throw new IllegalStateException(config.displayId() + " has no failed-events store (only JetStream targets keep one)");
        }
        FailedReplay.Report r = FailedReplay.replay(failedStore.get(), queue.get(), filter, dryRun,
            subjectTemplate.hasPlaceholders(), entry -> {
            replayed.incrementAndGet();
            newestSeq.accumulateAndGet(entry.seq(), Math::max);
        });
        if (r.done() > 0) {
            dispatcher.ifPresent(Dispatcher::wake);
        }
        return r;
    }

    /** Deletes records of this target's failed store (or lists them, {@code dryRun}). */
    public FailedReplay.Report purgeFailed(FailedReplay.Filter filter, boolean dryRun) throws java.io.IOException {
        if (failedStore.isEmpty()) {
            throw new IllegalStateException(config.displayId() + " has no failed-events store (only JetStream targets keep one)");
        }
        return FailedReplay.purge(failedStore.get(), filter, dryRun);
    }

    /** The last error a publish met, or a queue write, with when. */
    public record LastError(String text, java.time.Instant at) {
    }

    /** What this target is doing now (issue #13): see {@link TargetState#of}. */
    public TargetState state() {
        long queued = queueLength();
        long oldest = queued > 0 ? queue.flatMap(QueueStore::oldestQueuedAt).map(java.time.Instant::toEpochMilli).orElse(0L) : 0;
        boolean fail = initFailure.isPresent() || check.flatMap(StreamCheck::failure).isPresent();
        long now = runtime.clock().millis();
        long writeFailure = queueUnavailable().isPresent() ? now
            : Math.max(lastWriteFailureMs, queue.map(QueueStore::lastUpkeepWriteFailureMillis).orElse(0L));
        return TargetState.of(now, queued, oldest, lastAckMs, startedMs, fail, writeFailure);
    }

    /** When this target was opened (its counters start there), in epoch milliseconds of its clock. */
    public long startedMillis() {
        return startedMs;
    }

    /** Age of the oldest queued entry; empty when the queue is empty. */
    public Optional<java.time.Duration> oldestAge() {
        if (queueLength() == 0) {
            return Optional.empty();
        }
        return queue.flatMap(QueueStore::oldestQueuedAt)
            .map(q -> java.time.Duration.ofMillis(Math.max(0, runtime.clock().millis() - q.toEpochMilli())));
    }

    /**
     * The duplicate window of the target's stream (JetStream only): the last one a stream lookup
     * read, or before any lookup answered the minimum validation requires. An entry queued longer
     * than this is no longer deduplicated if an earlier attempt of it was in fact stored.
     */
    public Optional<java.time.Duration> duplicateWindow() {
        return check.map(StreamCheck::duplicateWindow);
    }

    /** Entries acknowledged by the server since start (duplicates included): events out. */
    public long resolvedCount() {
        return resolved.get();
    }

    /** Acks saying the stream already held the msg id, since start. */
    public long duplicateAckCount() {
        return duplicateAcks.get();
    }

    /** When the last publish ack arrived; empty before the first. */
    public Optional<java.time.Instant> lastAck() {
        long ms = lastAckMs;
        return ms == 0 ? Optional.empty() : Optional.of(java.time.Instant.ofEpochMilli(ms));
    }

    /** The last error a publish or a queue write met, with its time. */
    public Optional<LastError> lastError() {
        Optional<String> init = unavailable().or(() -> check.flatMap(StreamCheck::failure));
        return init.isPresent() ? Optional.of(new LastError(init.get(), runtime.clock().instant())) : lastError;
    }

    /** Why the last attempt to connect failed, naming the servers and the cause; empty once connected. */
    public Optional<String> connectFailure() {
        return link.lastConnectFailure();
    }

    /** The server this target is connected to, if any. */
    public Optional<String> connectedServer() {
        return link.current().map(Connection::getConnectedUrl);
    }

    /** Failed records replayed into the queue since start ({@code jetsink_failed_replayed_total}). */
    public long replayedCount() {
        return replayed.get();
    }

    /** Events accepted into this target ({@code total_messages}). */
    public long acceptedCount() {
        return accepted.get();
    }

    /** Terminal moves plus ingest rejections ({@code failed_messages}). */
    public long failedCount() {
        return failedMessages.get();
    }

    /** The verdict as {@code /status} shows it: {@code PASS}, {@code FAIL}, {@code UNSET}, or {@code none} on the Core path. */
    public String verdictLabel() {
        if (failedStore.isEmpty()) {
            return "none";
        }
        return state() == TargetState.FAILING ? "FAIL" : verdictPass() ? "PASS" : "UNSET";
    }

    /** True when the verdict is PASS (JetStream) — the {@code jetsink_stream_verdict} gauge. */
    public boolean verdictPass() {
        return verdict.isPass();
    }

    public Optional<String> initFailure() {
        return initFailure;
    }

    private Optional<String> capturingStream() {
        return link.current().flatMap(c -> {
            try {
                return c.jetStreamManagement().getStreamNames(subjectTemplate.captureSpace()).stream().findFirst();
            } catch (Exception e) {
                return Optional.empty();
            }
        });
    }

    /** Stops delivering, giving publishes in flight up to {@code grace}; queued entries stay on disk. */
    public void close(Duration grace) {
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
        publisher.ifPresent(Publisher::close);
        link.close();
        queue.ifPresent(QueueStore::close);
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }

    /**
     * Connection events: the verdict resets (DESIGN.md "Stream validation and verdict") and the
     * early end of a backoff sleep.
     */
    private final class ConnectionHooks implements TargetConnection.Hooks {
        @Override
        public void connected(boolean reconnect) {
            outcomes.reset(reconnect ? ResetReason.RECONNECTED : ResetReason.NEW_CONNECTION);
            events.connectionChanged(new LifecycleEvent.ConnectionChanged(config.displayId(),
                reconnect ? LifecycleEvent.ConnectionEvent.RECONNECTED : LifecycleEvent.ConnectionEvent.CONNECTED));
            dispatcher.ifPresent(Dispatcher::wakeProbe);
        }

        @Override
        public void disconnected() {
            publisher.ifPresent(Publisher::abandonInFlight);
            events.connectionChanged(new LifecycleEvent.ConnectionChanged(config.displayId(),
                LifecycleEvent.ConnectionEvent.DISCONNECTED));
        }

        @Override
        public void closed() {
            events.connectionChanged(new LifecycleEvent.ConnectionChanged(config.displayId(),
                LifecycleEvent.ConnectionEvent.CLOSED));
        }

        @Override
        public void tlsRotated() {
            outcomes.reset(ResetReason.TLS_ROTATED);
        }
    }
}

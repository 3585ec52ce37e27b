package dev.jetsink.internal.targets;

import dev.jetsink.lifecycle.StreamVerdict;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.delivery.Dispatcher;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.failed.FailedReplay;
import dev.jetsink.internal.publish.Publisher;
import dev.jetsink.internal.publish.StreamCheck;
import dev.jetsink.internal.queue.DeferredQueue;
import dev.jetsink.internal.queue.QueueOptions;
import dev.jetsink.internal.queue.QueueStore;
import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.internal.queue.SegmentedQueue;
import io.nats.client.Connection;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One NATS target, notify or audit, on the Core or the JetStream path: the coordinator of its queue,
 * connection, stream check, failed-events store, intake and dispatcher (DESIGN.md "Delivery").
 * Events come in through its {@link Intake}, are accepted once durably queued and delivered in the
 * background; {@link TargetStartup} connects and validates at start; closing keeps every queued
 * entry for the next start. What it reports lives in {@link TargetCounters} and {@link #state()}.
 */
public final class NatsTarget implements AutoCloseable {

    private final TargetConfig config;
    private final TargetRuntime runtime;
    private final TargetParts parts;
    private final Optional<QueueStore> queue;
    private final TargetCounters counters;
    private final Intake intake;
    private final TargetStartup startup;

    private NatsTarget(TargetConfig config, TargetRuntime runtime, Optional<QueueStore> queue) {
        this.config = config;
        this.runtime = runtime;
        this.queue = queue;
        this.parts = TargetParts.assemble(config, runtime, queue);
        this.counters = parts.counters();
        this.intake = parts.intake();
        this.startup = new TargetStartup(config, runtime, parts.link(), parts.check(), parts.verdict(), intake, queue,
            parts.dispatcher());
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
     * opens its queue once the disk takes writes (DESIGN.md "A queue directory the disk refuses at
     * start"). A locked queue or a newer format still throws.
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

    /** Logs the startup line, validates the stream (JetStream) and starts delivering: see {@link TargetStartup}. */
    public void start() {
        startup.start();
    }

    /** One retry of a failed init; package-private so a test can trigger it instead of waiting 60 s. */
    void retryInit() {
        startup.retryInit();
    }

    /** One retry of opening a refused queue directory; package-private so a test need not wait 10 s. */
    void retryQueue() {
        startup.retryQueue();
    }

    /** The one way events come in (library and HTTP ingest alike). */
    public Intake intake() {
        return intake;
    }

    /** {@link Intake#enqueue}: queues one event, completing with its entry once it is durable. */
    public CompletableFuture<QueuedEntry> enqueue(OutboundEvent event) {
        return intake.enqueue(event);
    }

    /**
     * Why this target's queue directory cannot be opened (a full disk, an unwritable directory):
     * while present the target refuses events and reports {@link TargetState#DEGRADED}.
     */
    public Optional<String> queueUnavailable() {
        return queue.flatMap(DeferredQueue::unavailable);
    }

    /**
     * Health from the connection and the last verdict (DESIGN.md "Status"), validating the stream
     * live while the verdict is UNSET; see {@link TargetHealth#of}.
     */
    public TargetHealth health() {
        return TargetHealth.of(config, intake.unavailable(), parts.link().current(), parts.link().lastConnectFailure(),
            parts.check(), parts.verdict(), true);
    }

    /** {@link #health()} from what is known already: no request to the server, nothing logged. */
    public TargetHealth healthAsKnown() {
        return TargetHealth.of(config, intake.unavailable(), parts.link().current(), parts.link().lastConnectFailure(),
            parts.check(), parts.verdict(), false);
    }

    public TargetConfig config() {
        return config;
    }

    public String displayId() {
        return config.displayId();
    }

    /** The dispatcher (a target with a queue dir), for tests of delivery in this package. */
    Optional<Dispatcher> dispatcher() {
        return parts.dispatcher();
    }

    /** Entries waiting behind an earlier event of their object ({@code ORDER=key}); 0 otherwise. */
    public int heldForOrder() {
        return parts.dispatcher().map(Dispatcher::heldForOrder).orElse(0);
    }

    /** What this target has counted since it was opened. */
    public TargetCounters counters() {
        return counters;
    }

    /** Live entries in the local queue (0 without a queue dir). */
    public long queueLength() {
        return queue.map(QueueStore::liveCount).orElse(0L);
    }

    public Optional<QueueStore> queue() {
        return queue;
    }

    public Optional<FailedEventStore> failedStore() {
        return parts.failedStore();
    }

    /**
     * Replays records of this target's failed store into its queue, with their msg ids (see
     * {@link FailedReplay}). The dispatcher picks them up as it would new events. An operator's act
     * only: nothing in jetsink calls this on its own.
     *
     * @throws IllegalStateException for a target without a failed store (the Core path has none)
     */
    public FailedReplay.Report replayFailed(FailedReplay.Filter filter, boolean dryRun) throws IOException {
        FailedReplay.Report r = FailedReplay.replay(requireFailedStore(), queue.orElseThrow(), filter, dryRun,
            config.subjectTemplate().hasPlaceholders(), counters::replayed);
        if (r.done() > 0) {
            parts.dispatcher().ifPresent(Dispatcher::wake);
        }
        return r;
    }

    /** Deletes records of this target's failed store (or lists them, {@code dryRun}). */
    public FailedReplay.Report purgeFailed(FailedReplay.Filter filter, boolean dryRun) throws IOException {
        return FailedReplay.purge(requireFailedStore(), filter, dryRun);
    }

    private FailedEventStore requireFailedStore() {
        return parts.failedStore().orElseThrow(() -> new IllegalStateException(
            config.displayId() + " has no failed-events store (only JetStream targets keep one)"));
    }

    /** What this target is doing now: see {@link TargetState#of}. */
    public TargetState state() {
        long queued = queueLength();
        long oldest = queued > 0 ? queue.flatMap(QueueStore::oldestQueuedAt).map(java.time.Instant::toEpochMilli).orElse(0L) : 0;
        boolean fail = intake.initFailure().isPresent() || parts.check().flatMap(StreamCheck::failure).isPresent();
        long now = runtime.clock().millis();
        long writeFailure = queueUnavailable().isPresent() ? now
            : Math.max(counters.lastWriteFailureMillis(), queue.map(QueueStore::lastUpkeepWriteFailureMillis).orElse(0L));
        return TargetState.of(now, queued, oldest, counters.lastAckMillis(), counters.startedMillis(), fail, writeFailure);
    }

    /** Age of the oldest queued entry; empty when the queue is empty. */
    public Optional<Duration> oldestAge() {
        if (queueLength() == 0) {
            return Optional.empty();
        }
        return queue.flatMap(QueueStore::oldestQueuedAt)
            .map(q -> Duration.ofMillis(Math.max(0, runtime.clock().millis() - q.toEpochMilli())));
    }

    /**
     * The duplicate window of the target's stream (JetStream only): the last one a stream lookup
     * read, or before any lookup answered the minimum validation requires. An entry queued longer
     * than this is no longer deduplicated if an earlier attempt of it was in fact stored.
     */
    public Optional<Duration> duplicateWindow() {
        return parts.check().map(StreamCheck::duplicateWindow);
    }

    /** The last error a publish or a queue write met, with its time; an init or stream failure first. */
    public Optional<TargetCounters.LastError> lastError() {
        Optional<String> init = intake.unavailable().or(() -> parts.check().flatMap(StreamCheck::failure));
        return init.isPresent()
            ? Optional.of(new TargetCounters.LastError(init.get(), runtime.clock().instant()))
            : counters.lastErrorRecorded();
    }

    /** Why the last attempt to connect failed, naming the servers and the cause; empty once connected. */
    public Optional<String> connectFailure() {
        return parts.link().lastConnectFailure();
    }

    /** Whether the last connect attempt failed in a way only a fix mends: refused, bad credentials, TLS. */
    public boolean connectFailureNeedsAFix() {
        return parts.link().lastConnectFailureNeedsAFix();
    }

    /** The server this target is connected to, if any. */
    public Optional<String> connectedServer() {
        return parts.link().current().map(Connection::getConnectedUrl);
    }

    /** The stream verdict: PASS, FAIL (the target is failing its init), UNSET, or NONE on the Core path. */
    public StreamVerdict verdict() {
        if (parts.failedStore().isEmpty()) {
            return StreamVerdict.NONE;
        }
        return state() == TargetState.FAILING ? StreamVerdict.FAIL : verdictPass() ? StreamVerdict.PASS : StreamVerdict.UNSET;
    }

    /** True when the verdict is PASS (JetStream) — the {@code jetsink_stream_verdict} gauge. */
    public boolean verdictPass() {
        return parts.verdict().isPass();
    }

    public Optional<String> initFailure() {
        return intake.initFailure();
    }

    /** Stops delivering, giving publishes in flight up to {@code grace}; queued entries stay on disk. */
    public void close(Duration grace) {
        startup.stop(grace);
        parts.publisher().ifPresent(Publisher::close);
        parts.link().close();
        queue.ifPresent(QueueStore::close);
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }
}

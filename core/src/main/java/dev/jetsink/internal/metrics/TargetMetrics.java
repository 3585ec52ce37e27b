package dev.jetsink.internal.metrics;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.publish.SubjectRefusals;
import dev.jetsink.internal.queue.QueueStore;
import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.internal.targets.TargetCounters;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.LifecycleListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The metrics (DESIGN.md "Metrics") in a Micrometer registry the caller passes in. The four
 * {@code rustfs_*} series are gauges carrying cumulative counts, as in the origin system (a
 * Micrometer counter would gain a {@code _total} suffix); jetsink's own series use counters and a
 * timer.
 *
 * <p>Register each target with {@link #register(NatsTarget)} and pass this object as (one of) the
 * runtime's lifecycle listeners so it sees acknowledgements, failures and exhaustions. A target
 * removed at runtime is unbound with {@link #unregister(NatsTarget)}, so a later target with the
 * same id gets fresh meters bound to it rather than to the removed one.
 */
public final class TargetMetrics implements LifecycleListener {

    private final MeterRegistry registry;
    private final Map<String, PerTarget> byTarget = new ConcurrentHashMap<>();
    private final Map<String, List<Meter>> bound = new ConcurrentHashMap<>();

    public TargetMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Binds the gauges of one target; safe to call once per target. */
    public void register(NatsTarget target) {
        TargetKind kind = target.config().kind();
        Tags tags = Tags.of("target_id", target.config().id() + ":nats", "target_type", "nats");
        String prefix = kind.metricPrefix();
        List<Meter> meters = new ArrayList<>();
        meters.add(Gauge.builder(kind.queueLengthMetric(), target, NatsTarget::queueLength).tags(tags)
            .description("live entries in the target's local queue").register(registry));
        meters.add(Gauge.builder(prefix + "failed_messages", target.counters(), TargetCounters::failedCount).tags(tags)
            .description("events that left the queue for good: terminal moves plus ingest rejections").register(registry));
        meters.add(Gauge.builder(prefix + "failed_store_length", target,
                t -> t.failedStore().map(FailedEventStore::count).orElse(0))
            .tags(tags).description("records in the failed-events store").register(registry));
        meters.add(Gauge.builder(prefix + "total_messages", target.counters(), TargetCounters::acceptedCount).tags(tags)
            .description("events accepted into the target").register(registry));
        Tags own = tags.and("kind", kind.label());
        meters.add(Gauge.builder("jetsink_stream_verdict", target, t -> t.verdictPass() ? 1 : 0).tags(own)
            .description("1 when the last stream validation passed").register(registry));
        meters.add(Gauge.builder("jetsink_queue_bytes", target, t -> t.queue().map(QueueStore::bytes).orElse(0L)).tags(own)
            .description("bytes of the target's queue segments on disk").register(registry));
        meters.add(FunctionCounter.builder("jetsink_queue_corrupt_records", target,
                t -> t.queue().map(QueueStore::corruptRecords).orElse(0L)).tags(own)
            .description("damaged queue records found and skipped").register(registry));
        meters.add(FunctionCounter.builder("jetsink_queue_torn_tail", target,
                t -> t.queue().map(QueueStore::tornTails).orElse(0L)).tags(own)
            .description("segments whose unfinished last write was cut off at open (not damage)").register(registry));
        meters.add(FunctionCounter.builder("jetsink_queue_sidecar_rebuilt", target,
                t -> t.queue().map(QueueStore::sidecarRebuilds).orElse(0L)).tags(own)
            .description("resolution sidecars that failed their checksum, taken as nothing resolved").register(registry));
        meters.add(FunctionCounter.builder("jetsink_failed_replayed", target.counters(), TargetCounters::replayedCount).tags(own)
            .description("failed records an operator replayed into the queue").register(registry));
        for (dev.jetsink.internal.targets.TargetState state : dev.jetsink.internal.targets.TargetState.values()) {
            meters.add(Gauge.builder("jetsink_target_state", target, t -> t.state() == state ? 1 : 0)
                .tags(own.and("state", state.label()))
                .description("1 for the target's current state: delivering, idle, stalled, failing, degraded")
                .register(registry));
        }
        meters.add(Gauge.builder("jetsink_queue_oldest_age_seconds", target,
                t -> t.oldestAge().map(d -> d.toMillis() / 1000.0).orElse(0.0)).tags(own)
            .description("age of the oldest queued entry, 0 when the queue is empty").register(registry));
        if (target.config().order() == dev.jetsink.OrderMode.KEY) {
            meters.add(Gauge.builder("jetsink_order_held_entries", target, NatsTarget::heldForOrder).tags(own)
                .description("entries waiting behind an earlier event of their object (ORDER=key)").register(registry));
            for (SubjectRefusals.Last last : SubjectRefusals.Last.values()) {
                meters.add(FunctionCounter.builder("jetsink_order_subject_refusals", target.counters().subjectRefusals(),
                        r -> r.count(last)).tags(own.and("last", last.label()))
                    .description("publishes the stream refused as not right after their object's last message, by what"
                        + " that message was: the event's own copy, another message, or unread").register(registry));
            }
        }
        meters.addAll(capacity(target, own));
        target.failedStore().ifPresent(store -> meters.addAll(failedStore(store, own)));
        meters.add(Gauge.builder("jetsink_last_ack_timestamp_seconds", target,
                t -> t.counters().lastAck().map(i -> i.toEpochMilli() / 1000.0).orElse(0.0)).tags(own)
            .description("Unix time of the last publish ack, 0 before the first").register(registry));
        PerTarget perTarget = new PerTarget(registry, own);
        meters.addAll(perTarget.meters());
        byTarget.put(target.displayId(), perTarget);
        bound.put(target.displayId(), List.copyOf(meters));
    }

    /**
     * What an operator needs to see a target fill up before senders get 503: the queue's limit
     * and how full it is (a queue-backed target), the stream's duplicate window that the oldest
     * entry's age must stay under for a re-publish to be deduplicated (JetStream), and the expiry
     * of the NATS client certificate (when one is configured).
     */
    private List<Meter> capacity(NatsTarget target, Tags own) {
        List<Meter> meters = new ArrayList<>();
        if (target.queue().isPresent()) {
            long limit = target.config().queueLimit();
            meters.add(Gauge.builder("jetsink_queue_limit_entries", target, t -> limit).tags(own)
                .description("queue_limit: most live entries the queue holds before ingest answers 503").register(registry));
            meters.add(Gauge.builder("jetsink_queue_fill_ratio", target, t -> (double) t.queueLength() / limit).tags(own)
                .description("the queue's fullest limit dimension, 0..1 (live entries / queue_limit)").register(registry));
        }
        target.duplicateWindow().ifPresent(w -> meters.add(Gauge.builder("jetsink_stream_duplicate_window_seconds",
                target, t -> t.duplicateWindow().map(d -> d.toMillis() / 1000.0).orElse(Double.NaN)).tags(own)
            .description("the stream's duplicate window as last read, or the validated minimum before the first read")
            .register(registry)));
        target.config().tlsClientCert().ifPresent(file -> {
            CertificateFileExpiry expiry = new CertificateFileExpiry(file, Clock.systemUTC());
            meters.add(Gauge.builder("jetsink_nats_tls_certificate_expiry_seconds", expiry,
                    CertificateFileExpiry::secondsLeft).tags(own).strongReference(true)
                .description("seconds until the NATS client certificate (tls_client_cert) expires, negative after")
                .register(registry));
        });
        return meters;
    }

    /**
     * How close the failed store is to deleting evidence: its oldest record's age and the retention
     * that deletes it, and the record bound at which each new record deletes the oldest (the
     * count itself is {@code <prefix>failed_store_length}), so an alert can page while the records
     * are still on disk.
     */
    private List<Meter> failedStore(FailedEventStore store, Tags own) {
        return List.of(
            Gauge.builder("jetsink_failed_oldest_age_seconds", store,
                    s -> s.oldestAge().map(d -> d.toMillis() / 1000.0).orElse(0.0)).tags(own)
                .description("age of the oldest record in the failed-events store, 0 when it is empty").register(registry),
            Gauge.builder("jetsink_failed_retention_seconds", store, s -> s.limits().retention().toSeconds()).tags(own)
                .description("failed-events records older than this are deleted").register(registry),
            Gauge.builder("jetsink_failed_max_records", store, s -> s.limits().maxRecords()).tags(own)
                .description("failed_max_records: at this many records each new one deletes the oldest").register(registry));
    }

    /** Removes every meter {@link #register} bound for {@code target}; its series leave the scrape. */
    public void unregister(NatsTarget target) {
        byTarget.remove(target.displayId());
        List<Meter> meters = bound.remove(target.displayId());
        if (meters != null) {
            meters.forEach(registry::remove);
        }
    }

    @Override
    public void entryResolved(LifecycleEvent.EntryResolved e) {
        PerTarget m = byTarget.get(e.target());
        if (m != null) {
            m.publishSeconds.record(e.sinceQueued());
            (e.duplicate() ? m.duplicateAttempts : m.successAttempts).increment();
            if (e.duplicate()) {
                m.duplicateAcks.increment();
            }
        }
    }

    @Override
    public void attemptFailed(LifecycleEvent.AttemptFailed e) {
        PerTarget m = byTarget.get(e.target());
        if (m != null) {
            (e.outcome().isPermanent() ? m.permanentAttempts : m.transientAttempts).increment();
        }
    }

    @Override
    public void cycleExhausted(LifecycleEvent.CycleExhausted e) {
        PerTarget m = byTarget.get(e.target());
        if (m != null) {
            m.exhaustions.increment();
        }
    }

    /** Per-target meters that lifecycle events drive. */
    private static final class PerTarget {
        final Timer publishSeconds;
        final Counter successAttempts;
        final Counter duplicateAttempts;
        final Counter transientAttempts;
        final Counter permanentAttempts;
        final Counter duplicateAcks;
        final Counter exhaustions;

        PerTarget(MeterRegistry r, Tags tags) {
            publishSeconds = Timer.builder("jetsink_publish_seconds").tags(tags)
                .description("time from enqueue to acknowledgement").publishPercentileHistogram().register(r);
            successAttempts = attempts(r, tags, "success");
            duplicateAttempts = attempts(r, tags, "duplicate");
            transientAttempts = attempts(r, tags, "transient");
            permanentAttempts = attempts(r, tags, "permanent");
            duplicateAcks = Counter.builder("jetsink_duplicate_acks").tags(tags)
                .description("acknowledgements reporting an already stored msg id").register(r);
            exhaustions = Counter.builder("jetsink_retry_exhaustions").tags(tags)
                .description("retry cycles an entry spent without delivering").register(r);
        }

        List<Meter> meters() {
            return List.of(publishSeconds, successAttempts, duplicateAttempts, transientAttempts, permanentAttempts,
                duplicateAcks, exhaustions);
        }

        private static Counter attempts(MeterRegistry r, Tags tags, String outcome) {
            return Counter.builder("jetsink_publish_attempts").tags(tags.and("outcome", outcome))
                .description("publish attempts by outcome").register(r);
        }
    }
}

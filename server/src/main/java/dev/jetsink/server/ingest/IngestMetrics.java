package dev.jetsink.server.ingest;

import dev.jetsink.internal.config.TargetKind;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

/**
 * What one ingest endpoint counts: requests by answer ({@code jetsink_ingest_requests_total{kind,
 * status}}, {@code aborted} when the client went away before its answer), when the last event was
 * accepted ({@code jetsink_ingest_last_event_timestamp_seconds{kind}}: a store that silently
 * stopped sending is the most reported failure of MinIO and RustFS notification targets), how
 * many running targets it feeds ({@code jetsink_ingest_targets{kind}}: 0 for a kind that is off,
 * so the "nothing received" alert can leave it alone), and payload-count mismatches of MinIO's
 * audit batches.
 */
public final class IngestMetrics {

    private final MeterRegistry registry;
    private final TargetKind kind;
    private final Clock clock;
    private final Counter countMismatches;
    private final Map<String, Counter> requests = new ConcurrentHashMap<>();
    private final AtomicLong lastEventMs = new AtomicLong();

    /** @param runningTargets targets of {@code kind} running now (the admin API adds and removes them) */
    public IngestMetrics(MeterRegistry registry, TargetKind kind, Clock clock, IntSupplier runningTargets) {
        this.registry = registry;
        this.kind = kind;
        this.clock = clock;
        this.countMismatches = Counter.builder("jetsink.ingest.payload.count.mismatch")
            .description("Requests whose stated payload count differed from the entries in the body")
            .tag("kind", kind.label()).register(registry);
        Gauge.builder("jetsink.ingest.last.event.timestamp.seconds", lastEventMs, ms -> ms.get() / 1000.0)
            .description("Unix time the last event of this kind was accepted, 0 before the first")
            .tag("kind", kind.label()).register(registry);
        Gauge.builder("jetsink.ingest.targets", runningTargets, IntSupplier::getAsInt)
            .description("Running targets this kind's events go to; 0 when the kind is off")
            .tag("kind", kind.label()).strongReference(true).register(registry);
    }

    /** One answered request, by its status code. */
    void answered(int status) {
        count(Integer.toString(status));
    }

    /** A request whose client went away before its answer. */
    void aborted() {
        count("aborted");
    }

    private void count(String status) {
        requests.computeIfAbsent(status, s -> Counter.builder("jetsink.ingest.requests")
            .description("Ingest requests by the answer they got")
            .tags("kind", kind.label(), "status", s).register(registry)).increment();
    }

    void accepted() {
        lastEventMs.set(clock.millis());
    }

    void countMismatch() {
        countMismatches.increment();
    }
}

package dev.jetsink.server.ingest;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fault scenario 3: malformed and hostile bodies on both ingest endpoints. Every one is
 * answered 4xx (never 5xx, never a dropped connection), nothing is queued, and the daemon still
 * accepts a valid request afterwards. The bodies come from a logged seed; replay one with
 * {@code -Djetsink.crash.seed=}.
 */
class HostileBodyIT {

    @Test
    void hostileBodiesAreRefusedWithoutA5xxAndQueueNothing() throws Exception {
        int count = FaultRig.count(500, 5_000);
        long seed = FaultRig.seed("hostile-bodies");
        List<HostileBodies.Hostile> bodies = new HostileBodies(seed).take(count);
        Map<String, AtomicInteger> byOutcome = new ConcurrentHashMap<>();
        List<String> bad = java.util.Collections.synchronizedList(new ArrayList<>());
        long started = System.nanoTime();
        try (FaultRig rig = FaultRig.notifyAndAudit().startDaemon()) {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> sent = new ArrayList<>();
                for (HostileBodies.Hostile h : bodies) {
                    sent.add(pool.submit(() -> {
                        String outcome;
                        try {
                            HttpResponse<String> r = rig.post(h.path(), h.contentType(), h.body());
                            outcome = Integer.toString(r.statusCode());
                            if (r.statusCode() < 400 || r.statusCode() >= 500) {
                                bad.add(h.damage() + " " + h.path() + " -> " + r.statusCode() + " " + r.body());
                            }
                        } catch (Exception e) {
                            outcome = "no answer";
                            bad.add(h.damage() + " " + h.path() + " -> " + e);
                        }
                        byOutcome.computeIfAbsent(h.damage() + ":" + outcome, k -> new AtomicInteger()).incrementAndGet();
                        return null;
                    }));
                }
                for (Future<?> f : sent) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            Map<String, Integer> summary = new TreeMap<>();
            byOutcome.forEach((k, v) -> summary.put(k, v.get()));
            double notifyAccepted = rig.metric(TargetKind.NOTIFY.metricPrefix() + "total_messages");
            double auditAccepted = rig.metric(TargetKind.AUDIT.metricPrefix() + "total_messages");
            double queued = rig.notifyQueueLength() + rig.metric(TargetKind.AUDIT.queueLengthMetric());
            double refused = rig.metric(TargetKind.NOTIFY.metricPrefix() + "failed_messages")
                + rig.metric(TargetKind.AUDIT.metricPrefix() + "failed_messages");
            long inStream = rig.streamCount();
            HttpResponse<String> valid = rig.post("/notify", "application/json",
                EventLoad.body(1).getBytes(StandardCharsets.UTF_8));
            System.out.println("fault scenario=hostile-bodies requests=" + count + " seconds="
                + Duration.ofNanos(System.nanoTime() - started).toSeconds() + " acknowledged=0 in_stream=" + inStream
                + " duplicates=0 lost=0 failed_store=0 queued=" + (long) queued + " refused_4xx=" + (count - bad.size())
                + " bad_answers=" + bad.size() + " by_damage_and_status=" + summary);
            assertThat(bad).as("every hostile body gets a 4xx answer").isEmpty();
            assertThat(rig.daemonAlive()).isTrue();
            assertThat(notifyAccepted + auditAccepted).as("nothing accepted").isZero();
            assertThat(queued).as("nothing queued").isZero();
            assertThat(refused).as("a malformed body is no target's refusal: failed_messages stays 0").isZero();
            assertThat(inStream).as("nothing published").isZero();
            assertThat(valid.statusCode()).as("a valid request still succeeds: " + valid.body()).isEqualTo(200);
            assertThat(rig.awaitDrained(1, Duration.ofSeconds(60))).isTrue();
        }
    }
}

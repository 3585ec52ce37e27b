package dev.jetsink.server;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.nats.PemTls;
import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.MetricsText;
import dev.jetsink.server.testing.TestCa;
import dev.jetsink.server.testing.WebhookFixtures;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * {@code GET /metrics} after a scripted scenario: every series (DESIGN.md "Metrics"), with its
 * labels and values.
 */
class MetricsTest {

    @Test
    void metricsExposeEverySection9NameWithLabelsAfterDeliveriesATerminalFailureAndARejection() throws Exception {
        try (DaemonHarness h = new DaemonHarness()) {
            // Small max message size: one oversized event is a permanent failure (10054).
            Streams.create(h.admin(), StreamSpec.of(DaemonHarness.STREAM, DaemonHarness.SUBJECT)
                .duplicateWindow(Duration.ofSeconds(274)).maxMsgSize(6000).build());
            h.with(h.jetStreamTarget(TargetKind.NOTIFY, "_FULL", "MISSING"))
                .with(Map.of("RUSTFS_NOTIFY_NATS_QUEUE_LIMIT_FULL", "1"))
                .start();
            for (int i = 0; i < 3; i++) {
                assertThat(h.post("/notify/_", WebhookFixtures.putPhoto(i)).statusCode()).isEqualTo(200);
            }
            String longKey = "k".repeat(7000);
            assertThat(h.post("/notify/_", WebhookFixtures.webhook("s3:ObjectCreated:Put", "photos", longKey, longKey, 9))
                .statusCode()).isEqualTo(200);
            assertThat(h.post("/audit", WebhookFixtures.auditEntry(1)).statusCode()).isEqualTo(200);
            assertThat(h.post("/notify/full", WebhookFixtures.putPhoto(1)).statusCode()).isEqualTo(200);
            assertThat(h.post("/notify/full", WebhookFixtures.putPhoto(2)).statusCode()).as("rejected at queue_limit").isEqualTo(503);
            NatsTarget notify = h.target(TargetKind.NOTIFY, "_");
            await().atMost(DaemonHarness.AWAIT).until(() -> notify.queueLength() == 0
                && notify.failedStore().map(FailedEventStore::count).orElse(0) == 1
                && h.target(TargetKind.AUDIT, "_").queueLength() == 0);

            HttpResponse<String> r = h.get("/metrics");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
            Map<String, Double> m = MetricsText.samples(r.body());
            String n = "{target_id=\"_:nats\",target_type=\"nats\"}";
            String full = "{target_id=\"full:nats\",target_type=\"nats\"}";
            String a = "{target_id=\"_:nats\",target_type=\"nats\"}";
            assertThat(m).containsEntry("rustfs_notification_total_messages" + n, 4.0)
                .containsEntry("rustfs_notification_failed_messages" + n, 1.0)
                .containsEntry("rustfs_notification_failed_store_length" + n, 1.0)
                .containsEntry("rustfs_notification_target_queue_length" + n, 0.0)
                .containsEntry("rustfs_notification_failed_messages" + full, 1.0)
                .containsEntry("rustfs_notification_target_queue_length" + full, 1.0)
                .containsEntry("rustfs_notification_total_messages" + full, 1.0)
                .containsEntry("rustfs_audit_total_messages" + a, 1.0)
                .containsEntry("rustfs_audit_target_queue_length" + a, 0.0)
                .containsEntry("rustfs_audit_failed_messages" + a, 0.0)
                .containsEntry("rustfs_audit_failed_store_length" + a, 0.0);
            String own = "{kind=\"notify\",target_id=\"_:nats\",target_type=\"nats\"}";
            assertThat(m).containsEntry("jetsink_stream_verdict" + own, 1.0)
                .containsEntry("jetsink_publish_seconds_count" + own, 3.0)
                .containsEntry("jetsink_duplicate_acks_total" + own, 0.0)
                .containsEntry("jetsink_retry_exhaustions_total" + own, 0.0)
                .containsEntry("jetsink_queue_corrupt_records_total" + own, 0.0)
                .containsEntry("jetsink_queue_sidecar_rebuilt_total" + own, 0.0)
                .containsEntry("jetsink_queue_torn_tail_total" + own, 0.0)
                .containsEntry("jetsink_failed_replayed_total" + own, 0.0)
                .containsKey("jetsink_queue_bytes" + own)
                .containsEntry("jetsink_publish_attempts_total{kind=\"notify\",outcome=\"success\",target_id=\"_:nats\",target_type=\"nats\"}", 3.0)
                .containsEntry("jetsink_publish_attempts_total{kind=\"notify\",outcome=\"permanent\",target_id=\"_:nats\",target_type=\"nats\"}", 1.0);
            assertThat(m.keySet()).anyMatch(k -> k.startsWith("jetsink_publish_seconds_bucket{"));
            assertThat(m).containsEntry("jetsink_stream_verdict{kind=\"notify\",target_id=\"full:nats\",target_type=\"nats\"}", 0.0);
            assertThat(m.get("jetsink_failed_oldest_age_seconds" + own)).as("the oversized event's record").isGreaterThan(0.0)
                .isLessThan(DaemonHarness.AWAIT.toSeconds() + 5.0);
            assertThat(m).containsEntry("jetsink_failed_oldest_age_seconds{kind=\"audit\",target_id=\"_:nats\",target_type=\"nats\"}", 0.0)
                .containsEntry("jetsink_failed_retention_seconds" + own, 259200.0)
                .containsEntry("jetsink_ingest_targets{kind=\"notify\"}", 2.0)
                .containsEntry("jetsink_ingest_targets{kind=\"audit\"}", 1.0);
        }
    }

    @Test
    void failedRetentionAndRecordBoundAreTheConfiguredValues() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            h.with(Map.of("RUSTFS_NOTIFY_NATS_FAILED_MAX_AGE_HOURS", "168", "RUSTFS_NOTIFY_NATS_FAILED_MAX_RECORDS", "2500")).start();
            assertThat(scrape(h)).containsEntry(
                "jetsink_failed_retention_seconds{kind=\"notify\",target_id=\"_:nats\",target_type=\"nats\"}", 604800.0)
                .containsEntry("jetsink_failed_max_records{kind=\"notify\",target_id=\"_:nats\",target_type=\"nats\"}", 2500.0);
        }
    }

    @Test
    void aKindThatIsOffHasNoIngestTargetsSoNothingReceivedLeavesItAlone() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            h.with(Map.of("RUSTFS_AUDIT_ENABLE", "off")).start();
            Map<String, Double> m = scrape(h);
            assertThat(m).containsEntry("jetsink_ingest_targets{kind=\"notify\"}", 1.0)
                .containsEntry("jetsink_ingest_targets{kind=\"audit\"}", 0.0)
                .containsEntry("jetsink_ingest_last_event_timestamp_seconds{kind=\"audit\"}", 0.0);
            assertThat(m.get("process_start_time_seconds")).as("the grace period after start is counted from it")
                .isCloseTo(System.currentTimeMillis() / 1000.0, within(600.0));
        }
    }

    @Test
    void queueLimitIsTheConfiguredOneAndFillRatioRisesWhileNatsIsDown() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            h.with(Map.of("RUSTFS_NOTIFY_NATS_QUEUE_LIMIT", "10")).start();
            String own = "{kind=\"notify\",target_id=\"_:nats\",target_type=\"nats\"}";
            Map<String, Double> before = scrape(h);
            assertThat(before).containsEntry("jetsink_queue_limit_entries" + own, 10.0)
                .containsEntry("jetsink_queue_fill_ratio" + own, 0.0)
                .containsEntry("jetsink_queue_limit_entries{kind=\"audit\",target_id=\"_:nats\",target_type=\"nats\"}",
                    (double) dev.jetsink.internal.config.TargetSettings.DEFAULT_QUEUE_LIMIT);

            h.nats.kill();
            for (int i = 0; i < 4; i++) {
                assertThat(h.post("/notify", WebhookFixtures.putPhoto(i)).statusCode()).isEqualTo(200);
            }

            Map<String, Double> after = scrape(h);
            assertThat(after).containsEntry("jetsink_queue_fill_ratio" + own, 0.4)
                .containsEntry("jetsink_queue_limit_entries" + own, 10.0)
                .containsEntry("rustfs_notification_target_queue_length{target_id=\"_:nats\",target_type=\"nats\"}", 4.0);
        }
    }

    @Test
    void duplicateWindowIsTheStreamsOnceReadAndTheRequiredMinimumBefore() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            h.with(h.jetStreamTarget(TargetKind.NOTIFY, "_ELSEWHERE", "MISSING")).start();
            await().atMost(DaemonHarness.AWAIT).until(() -> h.target(TargetKind.NOTIFY, "_").verdictPass());

            Map<String, Double> m = scrape(h);
            // The harness's stream keeps msg ids 274 s; a 10 s ack timeout requires 5 * 10 + 124 = 174 s.
            assertThat(m).containsEntry(
                    "jetsink_stream_duplicate_window_seconds{kind=\"notify\",target_id=\"_:nats\",target_type=\"nats\"}", 274.0)
                .containsEntry(
                    "jetsink_stream_duplicate_window_seconds{kind=\"notify\",target_id=\"elsewhere:nats\",target_type=\"nats\"}", 174.0);
        }
    }

    @Test
    void requestDurationCountsEachAnswerUnderItsRouteAndStatusClass() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start()) {
            String ok = "jetsink_http_request_duration_seconds_count{path=\"notify\",status=\"2xx\"}";
            String refused = "jetsink_http_request_duration_seconds_count{path=\"notify\",status=\"4xx\"}";
            Map<String, Double> before = scrape(h);

            assertThat(h.post("/notify/_", WebhookFixtures.putPhoto(1)).statusCode()).isEqualTo(200);
            assertThat(h.post("/notify", "{not json").statusCode()).isEqualTo(400);
            assertThat(h.post("/audit", WebhookFixtures.auditEntry(1)).statusCode()).isEqualTo(200);
            assertThat(h.get("/no/such/route-" + "x".repeat(40)).statusCode()).isEqualTo(404);

            String text = h.get("/metrics").body();
            Map<String, Double> after = MetricsText.samples(text);
            assertThat(after.get(ok)).isEqualTo(before.getOrDefault(ok, 0.0) + 1);
            assertThat(after.get(refused)).isEqualTo(before.getOrDefault(refused, 0.0) + 1);
            assertThat(after).containsEntry("jetsink_http_request_duration_seconds_count{path=\"audit\",status=\"2xx\"}", 1.0)
                .containsEntry("jetsink_http_request_duration_seconds_count{path=\"unmatched\",status=\"4xx\"}", 1.0);
            assertThat(after.get("jetsink_http_request_duration_seconds_sum{path=\"notify\",status=\"2xx\"}")).isPositive();
            assertThat(after).containsEntry(
                "jetsink_http_request_duration_seconds_bucket{path=\"notify\",status=\"2xx\",le=\"+Inf\"}", after.get(ok));
            assertThat(text).as("a raw request path never becomes a label").doesNotContain("route-x");
            // The existing per-code ingest counter keeps counting alongside.
            assertThat(after).containsEntry("jetsink_ingest_requests_total{kind=\"notify\",status=\"400\"}", 1.0);
        }
    }

    @Test
    void jvmAndProcessSeriesAreExposed() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start()) {
            Map<String, Double> m = scrape(h);
            assertThat(MetricsText.sum(m, "jvm_memory_used_bytes{area=\"heap\"")).isPositive();
            assertThat(m.get("jvm_threads_live_threads")).isGreaterThan(1.0);
            assertThat(m.get("jvm_classes_loaded_classes")).isPositive();
            assertThat(m.get("process_files_open_files")).isPositive();
            assertThat(m.get("process_uptime_seconds")).isPositive();
            assertThat(m.get("system_cpu_count")).isPositive();
            assertThat(m).containsKey("process_cpu_usage");
            assertThat(m.keySet()).anyMatch(k -> k.startsWith("jvm_gc_memory_allocated_bytes_total"));
        }
    }

    @Test
    void everySeriesOnTheScrapeIsNamedInTheOperationsGuide() throws Exception {
        String guide = Files.readString(Path.of("..", "docs", "OPERATIONS.md"));
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start()) {
            assertThat(h.post("/notify", WebhookFixtures.putPhoto(1)).statusCode()).isEqualTo(200);
            List<String> families = h.get("/metrics").body().lines().filter(l -> l.startsWith("# TYPE "))
                .map(l -> l.split(" ")[2]).toList();
            assertThat(families).contains("jetsink_queue_fill_ratio", "jetsink_http_request_duration_seconds",
                "jvm_memory_used_bytes");
            assertThat(families.stream().filter(f -> !guide.contains(f)).toList()).as("series OPERATIONS.md does not name")
                .isEmpty();
        }
    }

    @Test
    void natsClientCertificateExpiryFollowsTheFileTheTargetConnectsWith(@TempDir Path dir) throws Exception {
        TestCa ca = TestCa.create(dir, "nats-clients");
        Path[] first = ca.issueClient("first", 401, 2);
        Path cert = dir.resolve("client-cert.pem");
        Path key = dir.resolve("client-key.pem");
        Files.copy(first[0], cert);
        Files.copy(first[1], key);
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            String p = TargetKind.NOTIFY.envPrefix();
            h.with(h.jetStreamTarget(TargetKind.NOTIFY, "_MTLS", DaemonHarness.STREAM))
                .with(Map.of(p + "TLS_CA_MTLS", ca.cert.toString(), p + "TLS_CLIENT_CERT_MTLS", cert.toString(),
                    p + "TLS_CLIENT_KEY_MTLS", key.toString()))
                .start();
            String series = "jetsink_nats_tls_certificate_expiry_seconds{kind=\"notify\",target_id=\"mtls:nats\",target_type=\"nats\"}";
            assertThat(scrape(h).get(series)).isCloseTo(secondsLeft(first[0]), within(60.0));
            assertThat(scrape(h)).as("a target without a client certificate has no such series")
                .doesNotContainKey("jetsink_nats_tls_certificate_expiry_seconds{kind=\"notify\",target_id=\"_:nats\",target_type=\"nats\"}");

            Path[] second = ca.issueClient("second", 402, 30);
            Files.copy(second[1], key, StandardCopyOption.REPLACE_EXISTING);
            Files.copy(second[0], cert, StandardCopyOption.REPLACE_EXISTING);
            assertThat(scrape(h).get(series)).isCloseTo(secondsLeft(second[0]), within(60.0));
        }
    }

    @Test
    void gcPausesAreRecordedWhileTheDaemonRunsAndNoLongerAfterShutdown() throws Exception {
        io.micrometer.core.instrument.MeterRegistry registry;
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start()) {
            registry = h.daemon.registry();
            double before = gcPauses(registry);
            collectAndWitness();
            assertThat(gcPauses(registry)).as("a collection while the daemon runs is recorded").isGreaterThan(before);
        }
        double atShutdown = gcPauses(registry);
        collectAndWitness();
        assertThat(gcPauses(registry)).as("the GC binder stopped listening at shutdown").isEqualTo(atShutdown);
    }

    private static double gcPauses(io.micrometer.core.instrument.MeterRegistry registry) {
        return registry.find("jvm.gc.pause").timers().stream().mapToDouble(io.micrometer.core.instrument.Timer::count).sum();
    }

    /**
     * Runs a collection and returns once a listener registered after the daemon's has been told of
     * it: the JDK notifies a collector's listeners in registration order, so by then the daemon's
     * listener (if still registered) has recorded it.
     */
    private static void collectAndWitness() throws Exception {
        java.util.concurrent.CountDownLatch told = new java.util.concurrent.CountDownLatch(1);
        javax.management.NotificationListener witness = (n, handback) -> told.countDown();
        List<javax.management.NotificationEmitter> emitters = java.lang.management.ManagementFactory
            .getGarbageCollectorMXBeans().stream().filter(b -> b instanceof javax.management.NotificationEmitter)
            .map(b -> (javax.management.NotificationEmitter) b).toList();
        emitters.forEach(e -> e.addNotificationListener(witness, null, null));
        try {
            System.gc();
            assertThat(told.await(DaemonHarness.AWAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS))
                .as("the JVM reported the collection").isTrue();
        } finally {
            for (javax.management.NotificationEmitter e : emitters) {
                e.removeNotificationListener(witness);
            }
        }
    }

    private static double secondsLeft(Path certificate) throws Exception {
        return (PemTls.readCertificates(certificate).get(0).getNotAfter().getTime() - System.currentTimeMillis()) / 1000.0;
    }

    private static Map<String, Double> scrape(DaemonHarness h) throws Exception {
        HttpResponse<String> r = h.get("/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        return MetricsText.samples(r.body());
    }
}

package dev.jetsink.server;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.target.FailedEventStore;
import dev.jetsink.internal.target.NatsTarget;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code GET /metrics} after a scripted scenario: every §9 name, with its labels and values. */
class MetricsTest {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*})?\\s+(\\S+)$");

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
            Map<String, Double> m = samples(r.body());
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
        }
    }

    static Map<String, Double> samples(String text) {
        Map<String, Double> out = new HashMap<>();
        for (String line : List.of(text.split("\n"))) {
            Matcher mt = SAMPLE.matcher(line.trim());
            if (!line.startsWith("#") && mt.matches()) {
                out.put(mt.group(1) + (mt.group(2) == null ? "" : mt.group(2)), Double.parseDouble(mt.group(3)));
            }
        }
        return out;
    }
}

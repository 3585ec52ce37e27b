package dev.jetsink.server.http;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.HalfSentPost;
import dev.jetsink.server.testing.WebhookFixtures;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code /ready} and {@code /live}: readiness follows what the daemon would accept, not the broker,
 * and fails only when no target would take an event.
 */
class ReadinessTest {

    /** An audit target whose stream does not exist, so its queue fills and nothing drains it. */
    private static Map<String, String> auditThatCannotDrain(DaemonHarness h, int queueLimit) {
        Map<String, String> vars = new java.util.HashMap<>(h.jetStreamTarget(TargetKind.AUDIT, "", "NO_SUCH_STREAM", "audit.nowhere"));
        vars.put("RUSTFS_AUDIT_NATS_QUEUE_LIMIT", Integer.toString(queueLimit));
        return vars;
    }

    private static List<String> texts(JsonNode array, String field) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(n -> out.add(field.isEmpty() ? n.asText() : n.get(field).asText()));
        return out;
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return Json.READER.readTree(r.body());
    }

    @Test
    void readyStaysUpThroughABrokerOutageAndTurns503WhenTheOnlyTargetIsFull() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            h.with(Map.of("RUSTFS_AUDIT_ENABLE", "off", "RUSTFS_NOTIFY_NATS_QUEUE_LIMIT", "4")).start();
            assertThat(h.get("/ready").statusCode()).isEqualTo(200);
            assertThat(h.get("/live").statusCode()).isEqualTo(200);

            h.nats.kill();
            await().atMost(DaemonHarness.AWAIT).until(() -> h.get("/health").statusCode() == 503);
            HttpResponse<String> outage = h.get("/ready");
            assertThat(outage.statusCode()).as("the queue absorbs a NATS outage: " + outage.body()).isEqualTo(200);
            assertThat(json(outage).get("status").asText()).isEqualTo("ready");
            for (int i = 1; i <= 4; i++) {
                assertThat(h.post("/notify", WebhookFixtures.putPhoto(i)).statusCode()).as("event " + i + " queued").isEqualTo(200);
            }
            assertThat(h.target(TargetKind.NOTIFY, "_").queueLength()).isEqualTo(4);

            HttpResponse<String> full = h.get("/ready");
            assertThat(full.statusCode()).isEqualTo(503);
            JsonNode reason = json(full).get("reasons").get(0);
            assertThat(reason.get("target").asText()).isEqualTo("notify _:nats");
            assertThat(reason.get("reason").asText()).isEqualTo("queue full: at queue_limit 4");
            assertThat(h.post("/notify", WebhookFixtures.putPhoto(5)).statusCode()).as("what /ready announced").isEqualTo(503);
            assertThat(h.get("/live").statusCode()).as("alive all along").isEqualTo(200);
            assertThat(h.target(TargetKind.NOTIFY, "_").counters().failedCount())
                .as("probing readiness counts no rejection; the refused POST counts one").isEqualTo(1);

            h.nats.restart();
            await().atMost(DaemonHarness.AWAIT).until(() -> h.get("/ready").statusCode() == 200);
            await().atMost(DaemonHarness.AWAIT).until(() -> h.readStream(DaemonHarness.STREAM).size() == 4);
        }
    }

    @Test
    void aTargetThatCannotTakeEventsIsReportedWhileTheOthersKeepTheDaemonReady() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            dev.jetsink.testkit.Streams.create(h.admin(), dev.jetsink.testkit.StreamSpec.of("SEALED", "sealed.events")
                .duplicateWindow(java.time.Duration.ofSeconds(274)).build());
            dev.jetsink.testkit.Streams.seal(h.admin(), "SEALED");
            h.with(h.jetStreamTarget(TargetKind.NOTIFY, "_ARCHIVE", "SEALED", "sealed.events")).start();
            HttpResponse<String> r = h.get("/ready");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(texts(json(r).get("accepting"), "")).containsExactlyInAnyOrder("notify _:nats", "audit _:nats");
            assertThat(r.body()).contains("notify archive:nats").contains("target unavailable: stream SEALED is sealed");
            HttpResponse<String> one = h.post("/notify/archive", WebhookFixtures.putPhoto(1));
            assertThat(one.statusCode()).as("refused per request instead").isEqualTo(503);
            assertThat(one.headers().firstValue("Retry-After")).hasValue("60");
        }
    }

    @Test
    void aFullAuditQueueLeavesReadyUpWhileNotifyDelivers() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            h.with(auditThatCannotDrain(h, 3)).start();
            for (int i = 1; i <= 3; i++) {
                assertThat(h.post("/audit", WebhookFixtures.auditEntry(i)).statusCode()).as("audit " + i + " queued").isEqualTo(200);
            }
            HttpResponse<String> refused = h.post("/audit", WebhookFixtures.auditEntry(4));
            assertThat(refused.statusCode()).as("the audit queue is full").isEqualTo(503);
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();

            HttpResponse<String> ready = h.get("/ready");
            assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
            assertThat(json(ready).get("status").asText()).isEqualTo("ready");
            assertThat(texts(json(ready).get("accepting"), "")).containsExactly("notify _:nats");
            assertThat(texts(json(ready).get("reasons"), "target")).containsExactly("audit _:nats");
            assertThat(texts(json(ready).get("reasons"), "reason")).containsExactly("queue full: at queue_limit 3");

            HttpResponse<String> audit = h.get("/ready/audit");
            assertThat(audit.statusCode()).as(audit.body()).isEqualTo(503);
            assertThat(json(audit).get("kind").asText()).isEqualTo("audit");
            assertThat(h.get("/ready/notify").statusCode()).isEqualTo(200);

            HttpResponse<String> health = h.get("/health");
            assertThat(health.statusCode()).as("the refusing target shows in /health").isEqualTo(503);
            JsonNode auditHealth = null;
            for (JsonNode t : json(health).get("targets")) {
                if (t.get("target").asText().equals("audit _:nats")) {
                    auditHealth = t;
                }
                if (t.get("target").asText().equals("notify _:nats")) {
                    assertThat(t.has("refusing")).as("notify takes events").isFalse();
                }
            }
            assertThat(auditHealth).isNotNull();
            assertThat(auditHealth.get("refusing").asText()).isEqualTo("queue full: at queue_limit 3");

            for (int i = 1; i <= 50; i++) {
                assertThat(h.post("/notify", WebhookFixtures.putPhoto(i)).statusCode()).as("notify " + i).isEqualTo(200);
            }
            await().atMost(DaemonHarness.AWAIT).until(() -> h.readStream(DaemonHarness.STREAM).size() == 50);
            assertThat(h.target(TargetKind.AUDIT, "_").queueLength()).as("audit still cannot drain").isEqualTo(3);
        }
    }

    @Test
    void aKindWithoutARunningTargetHasNoReadinessProbe() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            h.with(Map.of("RUSTFS_AUDIT_ENABLE", "off")).start();
            HttpResponse<String> audit = h.get("/ready/audit");
            assertThat(audit.statusCode()).isEqualTo(404);
            assertThat(json(audit).get("error").asText()).isEqualTo("no audit NATS target is enabled");
            assertThat(h.get("/ready/notify").statusCode()).isEqualTo(200);
            assertThat(h.get("/ready/other").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void shuttingDownMakesReady503() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start();
             Socket slow = new Socket("127.0.0.1", h.daemon.address().getPort())) {
            assertThat(h.get("/ready").statusCode()).isEqualTo(200);
            // a request in progress holds the shutdown open long enough to probe it
            HalfSentPost inProgress = HalfSentPost.start(slow, WebhookFixtures.putPhoto(1));
            await().atMost(DaemonHarness.AWAIT).until(() -> h.daemon.gate().inside() == 1);

            CompletableFuture<Void> shutdown = CompletableFuture.runAsync(h.daemon::shutdown);
            await().atMost(DaemonHarness.AWAIT).until(() -> h.daemon.gate().isClosed());
            HttpResponse<String> stopping = h.get("/ready");
            assertThat(stopping.statusCode()).isEqualTo(503);
            assertThat(stopping.body()).contains("shutting down");
            assertThat(h.get("/ready/notify").statusCode()).isEqualTo(503);

            inProgress.finish();
            shutdown.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void probesAnswerGetAndHeadOnly() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start()) {
            assertThat(h.post("/ready", "{}").statusCode()).isEqualTo(405);
            assertThat(h.post("/live", "{}").statusCode()).isEqualTo(405);
            assertThat(h.send(java.net.http.HttpRequest.newBuilder(h.uri("/ready"))
                .method("HEAD", java.net.http.HttpRequest.BodyPublishers.noBody()).build()).statusCode()).isEqualTo(200);
        }
    }
}

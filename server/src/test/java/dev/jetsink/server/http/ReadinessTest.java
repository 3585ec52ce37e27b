package dev.jetsink.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.WebhookFixtures;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code /ready} and {@code /live}: readiness follows what the daemon would accept, not the broker. */
class ReadinessTest {

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return HttpJson.JSON.readTree(r.body());
    }

    @Test
    void readyStaysUpThroughABrokerOutageAndTurns503OnlyWhileTheQueueIsFull() throws Exception {
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
    void readyIs503WithTheReasonWhenATargetCannotTakeEvents() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            dev.jetsink.testkit.Streams.create(h.admin(), dev.jetsink.testkit.StreamSpec.of("SEALED", "sealed.events")
                .duplicateWindow(java.time.Duration.ofSeconds(274)).build());
            dev.jetsink.testkit.Streams.seal(h.admin(), "SEALED");
            h.with(h.jetStreamTarget(TargetKind.NOTIFY, "_ARCHIVE", "SEALED", "sealed.events")).start();
            HttpResponse<String> r = h.get("/ready");
            assertThat(r.statusCode()).isEqualTo(503);
            assertThat(r.body()).contains("notify archive:nats").contains("target unavailable: stream SEALED is sealed");
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

package dev.jetsink.server.http;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.WebhookFixtures;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code GET /health} against the running daemon (DESIGN.md "Status"). */
class HealthTest {

    private static Map<String, JsonNode> byTarget(HttpResponse<String> r) throws Exception {
        Map<String, JsonNode> out = new HashMap<>();
        Json.READER.readTree(r.body()).get("targets").forEach(t -> out.put(t.get("target").asText(), t));
        return out;
    }

    @Test
    void healthIs200WhenEveryEnabledTargetIsOnlineAndShowsDisabledOnes() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            h.with(Map.of("RUSTFS_AUDIT_ENABLE", "off")).start();
            HttpResponse<String> r = h.get("/health");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            Map<String, JsonNode> t = byTarget(r);
            assertThat(t.get("notify _:nats").get("status").asText()).isEqualTo("online");
            assertThat(t.get("audit _:nats").get("status").asText()).isEqualTo("disabled");
            assertThat(t.get("audit _:nats").get("reason").asText()).isEqualTo("RUSTFS_AUDIT_ENABLE is off");
            HttpResponse<String> audit = h.post("/audit", WebhookFixtures.auditEntry(1));
            assertThat(audit.statusCode()).as("no audit target runs").isEqualTo(404);
            assertThat(audit.body()).contains("no audit NATS target is enabled");
        }
    }

    @Test
    void healthIs503WithTheTargetOfflineWhileTheBrokerIsDown() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start()) {
            h.nats.kill();
            await().atMost(DaemonHarness.AWAIT).untilAsserted(() -> {
                HttpResponse<String> r = h.get("/health");
                assertThat(r.statusCode()).isEqualTo(503);
                assertThat(byTarget(r).get("notify _:nats").get("status").asText()).isEqualTo("offline");
            });
            h.nats.restart();
            await().atMost(DaemonHarness.AWAIT).until(() -> h.get("/health").statusCode() == 200);
        }
    }

    @Test
    void sealedStreamTargetShowsErrorAndTheOthersOnline() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            Streams.create(h.admin(), StreamSpec.of("SEALED", "sealed.events").duplicateWindow(Duration.ofSeconds(274)).build());
            Streams.seal(h.admin(), "SEALED");
            h.with(h.jetStreamTarget(TargetKind.AUDIT, "_ARCHIVE", "SEALED", "sealed.events")).start();
            HttpResponse<String> r = h.get("/health");
            assertThat(r.statusCode()).isEqualTo(503);
            Map<String, JsonNode> t = byTarget(r);
            assertThat(t.get("audit archive:nats").get("status").asText()).isEqualTo("error");
            assertThat(t.get("audit archive:nats").get("reason").asText()).isEqualTo("stream SEALED is sealed");
            assertThat(t.get("audit _:nats").get("status").asText()).isEqualTo("online");
            assertThat(t.get("notify _:nats").get("status").asText()).isEqualTo("online");
        }
    }
}

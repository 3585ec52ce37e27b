package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jetsink.server.testing.CliRun;
import dev.jetsink.server.testing.FaultRig;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /status}, {@code jetsink status} and the metrics operators alert on, with the daemon
 * as a child process and a real nats-server. The stall logic itself is proven with an
 * injected clock in core's {@code StatusBoardTest}; here: the shape a running daemon serves, the
 * 80-column table, and that the new series reach the scrape.
 */
class StatusIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static byte[] body(int i) {
        return ("{\"Records\":[{\"eventName\":\"s3:ObjectCreated:Put\",\"s3\":{\"bucket\":{\"name\":\"photos\"},"
            + "\"object\":{\"key\":\"status-" + i + ".jpg\"}}}]}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aRunningDaemonServesItsStatusAsJsonAndAsAnEightyColumnTable() throws Exception {
        try (FaultRig rig = FaultRig.notifyAndAudit().startDaemon()) {
            for (int i = 0; i < 20; i++) {
                assertThat(rig.post("/notify", "application/json", body(i)).statusCode()).isEqualTo(200);
            }
            assertThat(rig.post("/notify", "application/json", "{".getBytes(StandardCharsets.UTF_8)).statusCode())
                .isEqualTo(400);
            assertThat(rig.awaitDrained(20, Duration.ofSeconds(30))).isTrue();

            JsonNode notify = Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> target(rig, "notify"), t -> t.path("events_per_second").path("out_10s").asDouble() > 0);
            assertThat(notify.path("state").asText()).isEqualTo("delivering");
            assertThat(notify.path("verdict").asText()).isEqualTo("PASS");
            assertThat(notify.path("queue_length").asLong()).isZero();
            assertThat(notify.path("oldest_age_seconds").isNull()).isTrue();
            assertThat(notify.path("connected_server").asText()).startsWith("nats://");
            assertThat(notify.path("failed_store_length").asInt()).isZero();
            assertThat(notify.path("events_per_second").path("in_10s").asDouble()).isPositive();
            JsonNode audit = target(rig, "audit");
            assertThat(audit.path("state").asText()).isEqualTo("idle");

            CliRun table = CliRun.of("status", "--url", rig.base().toString());
            assertThat(table.exitCode).as(table.toString()).isZero();
            assertThat(table.out.lines().toList()).first().asString().startsWith("TARGET");
            assertThat(table.out).contains("notify _:nats", "delivering", "audit _:nats", "idle");
            assertThat(table.out.lines()).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(80));

            HttpResponse<String> head = rig.http().send(java.net.http.HttpRequest.newBuilder(rig.base().resolve("/status"))
                .method("HEAD", java.net.http.HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(head.statusCode()).isEqualTo(200);

            String own = "{kind=\"notify\",state=\"delivering\",target_id=\"_:nats\",target_type=\"nats\"}";
            assertThat(rig.metric("jetsink_target_state" + own)).isEqualTo(1.0);
            assertThat(rig.metric("jetsink_last_ack_timestamp_seconds")).isPositive();
            assertThat(rig.metric("jetsink_ingest_requests_total{kind=\"notify\",status=\"200\"}")).isEqualTo(20.0);
            assertThat(rig.metric("jetsink_ingest_requests_total{kind=\"notify\",status=\"400\"}")).isEqualTo(1.0);
            assertThat(rig.metric("jetsink_ingest_last_event_timestamp_seconds{kind=\"notify\"}")).isPositive();
            assertThat(rig.metric("jetsink_ingest_last_event_timestamp_seconds{kind=\"audit\"}")).isZero();
        }
    }

    @Test
    void theStatusCommandSaysWhenNoDaemonAnswers() {
        CliRun run = CliRun.of("status", "--url", "http://127.0.0.1:1");
        assertThat(run.exitCode).isEqualTo(1);
        assertThat(run.err).contains("cannot read http://127.0.0.1:1/status: no answer");
    }

    private static JsonNode target(FaultRig rig, String kind) throws Exception {
        HttpResponse<String> r = rig.http().send(java.net.http.HttpRequest.newBuilder(rig.base().resolve("/status")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        for (JsonNode t : JSON.readTree(r.body()).path("targets")) {
            if (t.path("kind").asText().equals(kind)) {
                return t;
            }
        }
        throw new AssertionError("no " + kind + " target in " + r.body());
    }
}

package dev.jetsink.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.FaultRig;
import dev.jetsink.server.testing.Tmpfs;
import dev.jetsink.server.testing.WebhookFixtures;
import dev.jetsink.testkit.StoredMessage;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue #13, point 4: a queue disk that refuses writes when the daemon starts (mounted read-only,
 * or full to the last byte) costs its own target only. The daemon starts, that target answers 503
 * and reports {@code degraded}, the audit target on a healthy disk serves; once the disk takes
 * writes again the target serves without a restart and every event it had queued before is
 * delivered once. The notify queue sits on a small tmpfs (root, as in CI here); never skipped.
 */
class DegradedDiskIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int QUEUED_BEFORE = 20;

    private static byte[] notifyBody(int n) {
        return WebhookFixtures.putPhoto(n).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] auditBody(int n) {
        return WebhookFixtures.auditEntry(n).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aQueueDiskThatRefusesWritesAtStartCostsOnlyItsTargetUntilItTakesWritesAgain() throws Exception {
        try (Tmpfs disk = Tmpfs.mount("4m"); FaultRig rig = FaultRig.notifyAndAudit()) {
            rig.env.put(TargetKind.NOTIFY.envPrefix() + "QUEUE_DIR", disk.dir.toString());
            // entries queued by an earlier run while the broker was down
            rig.nats.kill();
            rig.startDaemon();
            for (int i = 0; i < QUEUED_BEFORE; i++) {
                assertThat(rig.post("/notify", "application/json", notifyBody(i)).statusCode()).isEqualTo(200);
            }
            assertThat(rig.stopDaemon()).isZero();
            rig.nats.restart();

            // 1. the disk is read-only when the daemon starts: the queue cannot even be locked
            disk.readOnly(true);
            rig.startDaemon();
            HttpResponse<String> refused = rig.post("/notify", "application/json", notifyBody(100));
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
            assertThat(refused.body()).contains("queue directory unavailable");
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            assertThat(rig.post("/audit", "application/json", auditBody(1)).statusCode()).isEqualTo(200);
            assertThat(state(rig, "notify")).isEqualTo("degraded");
            assertThat(target(rig, "notify").path("last_error").path("text").asText()).contains("queue directory unavailable");
            assertThat(rig.metric("jetsink_target_state{kind=\"notify\",state=\"degraded\",target_id=\"_:nats\",target_type=\"nats\"}"))
                .isEqualTo(1.0);
            HttpResponse<String> health = get(rig, "/health");
            assertThat(health.statusCode()).as("a target that takes no events is not healthy").isEqualTo(503);
            assertThat(health.body()).contains("queue directory unavailable");
            assertThat(rig.daemonLog()).contains("queue directory cannot be opened, the target refuses events");

            // the disk takes writes again: within the 10 s retry the target serves, no restart
            disk.readOnly(false);
            awaitAccepted(rig, 101);
            assertThat(rig.daemonLog()).contains("queue directory opened, the target accepts events again");
            assertThat(rig.daemonAlive()).isTrue();
            assertDeliveredOnce(rig, Stream.concat(Stream.iterate(0, i -> i + 1).limit(QUEUED_BEFORE), Stream.of(101)).toList(), 1);

            // 2. the disk is full to the last byte when the daemon starts
            assertThat(rig.stopDaemon()).isZero();
            Path ballast = disk.fill("ballast");
            rig.startDaemon();
            List<Path> filesBefore = files(disk.dir);
            for (int i = 0; i < 50; i++) {
                assertThat(rig.post("/notify", "application/json", notifyBody(200 + i)).statusCode()).isEqualTo(503);
            }
            assertThat(files(disk.dir)).as("a refused append creates no file").isEqualTo(filesBefore);
            // whichever refused (the open at start, or each append), its ERROR line is throttled
            int openRefusals = rig.logCount("queue directory cannot be opened");
            int writeRefusals = rig.logCount("ingest failed to queue durably");
            System.out.println("full-disk start: queue-open refusals logged=" + openRefusals
                + " write refusals logged=" + writeRefusals + " for 50 refused requests");
            assertThat(writeRefusals).as("once per 10 s, not once per request").isLessThanOrEqualTo(3);
            assertThat(rig.post("/audit", "application/json", auditBody(2)).statusCode()).isEqualTo(200);
            assertThat(state(rig, "notify")).isEqualTo("degraded");
            Files.delete(ballast);
            awaitAccepted(rig, 300);
            assertThat(rig.daemonAlive()).isTrue();
            assertDeliveredOnce(rig, Stream.concat(Stream.iterate(0, i -> i + 1).limit(QUEUED_BEFORE),
                Stream.of(101, 300)).toList(), 2);
        }
    }

    /** Posts notify event {@code n} until it is taken (the target retries its queue every 10 s). */
    private static void awaitAccepted(FaultRig rig, int n) {
        Awaitility.await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(500))
            .until(() -> rig.post("/notify", "application/json", notifyBody(n)).statusCode() == 200);
    }

    /** Every notify event numbered in {@code keys} and {@code audits} audit entries are in the stream once. */
    private static void assertDeliveredOnce(FaultRig rig, List<Integer> keys, int audits) throws Exception {
        int expected = keys.size() + audits;
        assertThat(rig.awaitDrained(expected, Duration.ofSeconds(60))).as(rig.daemonLog()).isTrue();
        List<StoredMessage> stored = rig.readStream();
        Map<String, Long> byMsgId = stored.stream()
            .collect(Collectors.groupingBy(m -> m.headers().get(StoredMessage.MSG_ID_HEADER).get(0), Collectors.counting()));
        assertThat(byMsgId.values()).as("each message once").allMatch(c -> c == 1);
        String all = stored.stream().map(m -> new String(m.data(), StandardCharsets.UTF_8)).collect(Collectors.joining("\n"));
        for (int k : keys) {
            assertThat(all).as("notify event %d", k).contains("my+photo+" + k + ".jpg");
        }
        assertThat(stored).hasSize(expected);
    }

    private static List<Path> files(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).sorted().toList();
        }
    }

    private static String state(FaultRig rig, String kind) throws Exception {
        return target(rig, kind).path("state").asText();
    }

    private static HttpResponse<String> get(FaultRig rig, String path) throws Exception {
        return rig.http().send(HttpRequest.newBuilder(rig.base().resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode target(FaultRig rig, String kind) throws Exception {
        HttpResponse<String> r = get(rig, "/status");
        assertThat(r.statusCode()).isEqualTo(200);
        for (JsonNode t : JSON.readTree(r.body()).path("targets")) {
            if (t.path("kind").asText().equals(kind)) {
                return t;
            }
        }
        throw new AssertionError("no " + kind + " target in " + r.body());
    }
}

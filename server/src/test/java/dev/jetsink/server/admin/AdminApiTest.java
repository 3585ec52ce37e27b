package dev.jetsink.server.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.WebhookFixtures;
import dev.jetsink.testkit.FaultProxy;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The admin API against the running daemon (DESIGN.md "Admin API"): a target applied at runtime
 * takes events and delivers them, a dry run applies nothing, a reset removes the target, and a
 * restart brings applied targets back from {@code JETSINK_DATA_DIR}.
 */
class AdminApiTest {

    private static final String STREAM = "APPLIED";
    private static final String SUBJECT = "applied.events";

    /** A daemon with no configured targets, an admin token and a data dir, and the APPLIED stream. */
    private static DaemonHarness harness() throws Exception {
        DaemonHarness h = new DaemonHarness().withoutTargets(TargetKind.NOTIFY).withoutTargets(TargetKind.AUDIT);
        AdminCalls.configure(h);
        Streams.create(h.admin(), StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofSeconds(274)).build());
        return h.start();
    }

    @Test
    void notifyTargetAppliedAtRuntimeDeliversIngestedEvents() throws Exception {
        try (DaemonHarness h = harness()) {
            AdminCalls admin = new AdminCalls(h);
            assertThat(h.post("/notify/primary", WebhookFixtures.putPhoto(1)).statusCode()).isEqualTo(404);

            HttpResponse<String> put = admin.put(TargetKind.NOTIFY, "primary", admin.jetStream(STREAM, SUBJECT));
            assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
            JsonNode body = AdminCalls.json(put);
            assertThat(body.get("target").asText()).isEqualTo("notify primary:nats");
            assertThat(body.get("applied").asBoolean()).isTrue();
            assertThat(body.get("persisted").asBoolean()).isTrue();

            HttpResponse<String> post = h.post("/notify/primary", WebhookFixtures.putPhoto(1));
            assertThat(post.statusCode()).as(post.body()).isEqualTo(200);
            // 200 means durably queued; delivery follows.
            await().atMost(DaemonHarness.AWAIT).untilAsserted(() -> assertThat(h.readStream(STREAM)).hasSize(1));
            List<StoredMessage> stored = h.readStream(STREAM);
            assertThat(stored.get(0).subject()).isEqualTo(SUBJECT);
            assertThat(stored.get(0).msgId()).isPresent();
        }
    }

    @Test
    void auditTargetAppliedAtRuntimeDeliversIngestedEntries() throws Exception {
        try (DaemonHarness h = harness()) {
            AdminCalls admin = new AdminCalls(h);
            HttpResponse<String> put = admin.put(TargetKind.AUDIT, "archive", admin.jetStream(STREAM, SUBJECT));
            assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
            assertThat(h.post("/audit/archive", WebhookFixtures.auditEntry(1)).statusCode()).isEqualTo(200);
            await().atMost(DaemonHarness.AWAIT).untilAsserted(() -> assertThat(h.readStream(STREAM)).hasSize(1));
            assertThat(h.post("/notify/archive", WebhookFixtures.putPhoto(1)).statusCode())
                .as("an audit target is not a notify target").isEqualTo(404);
        }
    }

    @Test
    void listShowsTheAppliedTargetWithPathHealthAndConfig() throws Exception {
        try (DaemonHarness h = harness()) {
            AdminCalls admin = new AdminCalls(h);
            assertThat(admin.put(TargetKind.NOTIFY, "primary", admin.jetStream(STREAM, SUBJECT)).statusCode()).isEqualTo(200);
            HttpResponse<String> list = admin.list(TargetKind.NOTIFY);
            assertThat(list.statusCode()).isEqualTo(200);
            JsonNode t = admin.listed(TargetKind.NOTIFY, "notify primary:nats");
            assertThat(t.path("path").asText()).isEqualTo("jetstream");
            assertThat(t.path("status").asText()).isEqualTo("online");
            assertThat(t.path("source").asText()).isEqualTo("admin");
            assertThat(t.path("arn").asText()).isEqualTo("arn:rustfs:sqs::primary:nats");
            assertThat(keyValue(t, "jetstream_stream_name")).isEqualTo(STREAM);
            assertThat(keyValue(t, "publish_window")).as("defaults are resolved").isEqualTo("1024");
            assertThat(AdminCalls.json(admin.list(TargetKind.AUDIT)).get("targets")).isEmpty();
            assertThat(h.get("/health").body()).as("/health covers applied targets").contains("notify primary:nats");
        }
    }

    @Test
    void dryRunValidatesAndAppliesNothing() throws Exception {
        try (DaemonHarness h = harness()) {
            AdminCalls admin = new AdminCalls(h);
            HttpResponse<String> put = admin.put(TargetKind.NOTIFY, "primary", admin.jetStream(STREAM, SUBJECT), "?dry_run=true");
            assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
            assertThat(AdminCalls.json(put).get("dry_run").asBoolean()).isTrue();
            assertThat(AdminCalls.json(put).get("applied").asBoolean()).isFalse();
            assertThat(h.post("/notify/primary", WebhookFixtures.putPhoto(1)).statusCode()).isEqualTo(404);
            assertThat(AdminCalls.json(admin.list(TargetKind.NOTIFY)).get("targets")).isEmpty();
            assertThat(persisted(h)).isEmpty();
        }
    }

    @Test
    void resetRemovesTheTargetAndItsPersistedRecord() throws Exception {
        try (DaemonHarness h = harness()) {
            AdminCalls admin = new AdminCalls(h);
            assertThat(admin.put(TargetKind.NOTIFY, "primary", admin.jetStream(STREAM, SUBJECT)).statusCode()).isEqualTo(200);
            assertThat(persisted(h)).containsExactly("notify-primary.json");

            HttpResponse<String> reset = admin.reset(TargetKind.NOTIFY, "primary");
            assertThat(reset.statusCode()).as(reset.body()).isEqualTo(200);
            assertThat(h.post("/notify/primary", WebhookFixtures.putPhoto(1)).statusCode()).isEqualTo(404);
            assertThat(AdminCalls.json(admin.list(TargetKind.NOTIFY)).get("targets")).isEmpty();
            assertThat(persisted(h)).isEmpty();
            assertThat(h.get("/metrics").body()).as("its series leave the scrape").doesNotContain("primary:nats");
            assertThat(admin.reset(TargetKind.NOTIFY, "primary").statusCode()).as("nothing left to reset").isEqualTo(404);
        }
    }

    @Test
    void restartRestoresAppliedTargets() throws Exception {
        try (DaemonHarness h = harness()) {
            AdminCalls admin = new AdminCalls(h);
            assertThat(admin.put(TargetKind.NOTIFY, "primary", admin.jetStream(STREAM, SUBJECT)).statusCode()).isEqualTo(200);
            assertThat(admin.put(TargetKind.AUDIT, "archive", admin.jetStream(STREAM, SUBJECT)).statusCode()).isEqualTo(200);
            h.daemon.shutdown();

            h.start();
            assertThat(h.post("/notify/primary", WebhookFixtures.putPhoto(1)).statusCode()).isEqualTo(200);
            assertThat(h.post("/audit/archive", WebhookFixtures.auditEntry(1)).statusCode()).isEqualTo(200);
            await().atMost(DaemonHarness.AWAIT).untilAsserted(() -> assertThat(h.readStream(STREAM)).hasSize(2));
            assertThat(admin.listed(TargetKind.NOTIFY, "notify primary:nats").path("source").asText()).isEqualTo("admin");
        }
    }

    @Test
    void applyingAgainReplacesTheTargetAndTheNewOneDeliversWhatTheOldOneQueued() throws Exception {
        try (DaemonHarness h = harness(); FaultProxy proxy = FaultProxy.in(h.nats)) {
            AdminCalls admin = new AdminCalls(h);
            var viaProxy = admin.jetStream(STREAM, SUBJECT);
            viaProxy.put("address", proxy.url());
            assertThat(admin.put(TargetKind.NOTIFY, "primary", viaProxy).statusCode()).isEqualTo(200);
            proxy.blackhole();
            assertThat(h.post("/notify/primary", WebhookFixtures.putPhoto(1)).statusCode())
                .as("queued while the old target cannot reach the broker").isEqualTo(200);

            var direct = admin.jetStream(STREAM, SUBJECT);
            direct.put("comment", "second version");
            HttpResponse<String> again = admin.put(TargetKind.NOTIFY, "primary", direct);
            assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
            await().atMost(DaemonHarness.AWAIT).untilAsserted(() -> assertThat(h.readStream(STREAM)).hasSize(1));
            assertThat(keyValue(admin.listed(TargetKind.NOTIFY, "notify primary:nats"), "comment")).isEqualTo("second version");
            assertThat(h.get("/metrics").body()).as("the meters follow the new target")
                .contains("rustfs_notification_target_queue_length{target_id=\"primary:nats\",target_type=\"nats\"} 0.0");
        }
    }

    @Test
    void replacementThatCannotStartKeepsThePreviousTargetRunning() throws Exception {
        try (DaemonHarness h = harness()) {
            AdminCalls admin = new AdminCalls(h);
            assertThat(admin.put(TargetKind.NOTIFY, "primary", admin.jetStream(STREAM, SUBJECT)).statusCode()).isEqualTo(200);
            Path notADirectory = Files.writeString(h.queueRoot.resolve("plain-file"), "x");
            var broken = admin.jetStream(STREAM, SUBJECT);
            broken.put("queue_dir", notADirectory.toString());
            HttpResponse<String> r = admin.put(TargetKind.NOTIFY, "primary", broken);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(500);
            assertThat(AdminCalls.json(r).get("error").asText()).startsWith("target passed the checks but could not be started");
            assertThat(h.post("/notify/primary", WebhookFixtures.putPhoto(1)).statusCode()).isEqualTo(200);
            await().atMost(DaemonHarness.AWAIT).untilAsserted(() -> assertThat(h.readStream(STREAM)).hasSize(1));
        }
    }

    @Test
    void persistedTargetReplacesAConfiguredOneOfTheSameIdAtStart() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withoutTargets(TargetKind.NOTIFY).withoutTargets(TargetKind.AUDIT)) {
            AdminCalls.configure(h);
            Streams.create(h.admin(), StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofSeconds(274)).build());
            h.with(h.jetStreamTarget(TargetKind.NOTIFY, "_PRIMARY", STREAM, SUBJECT)).start();
            AdminCalls admin = new AdminCalls(h);
            assertThat(admin.listed(TargetKind.NOTIFY, "notify primary:nats").path("source").asText()).isEqualTo("config");
            var kv = admin.jetStream(STREAM, SUBJECT);
            kv.put("comment", "from admin");
            assertThat(admin.put(TargetKind.NOTIFY, "primary", kv).statusCode()).isEqualTo(200);
            h.daemon.shutdown();

            h.start();
            JsonNode listed = admin.listed(TargetKind.NOTIFY, "notify primary:nats");
            assertThat(listed.path("source").asText()).isEqualTo("admin");
            assertThat(keyValue(listed, "comment")).isEqualTo("from admin");
            assertThat(AdminCalls.json(admin.list(TargetKind.NOTIFY)).get("targets")).hasSize(1);
        }
    }

    @Test
    void withoutADataDirTheTargetRunsAndTheAnswerWarnsItIsNotKept() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withoutTargets(TargetKind.NOTIFY).withoutTargets(TargetKind.AUDIT)) {
            h.with(java.util.Map.of("JETSINK_ADMIN_TOKEN", AdminCalls.TOKEN));
            Streams.create(h.admin(), StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofSeconds(274)).build());
            h.start();
            AdminCalls admin = new AdminCalls(h);
            HttpResponse<String> put = admin.put(TargetKind.NOTIFY, "primary", admin.jetStream(STREAM, SUBJECT));
            assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
            assertThat(AdminCalls.json(put).get("persisted").asBoolean()).isFalse();
            assertThat(AdminCalls.json(put).get("warning").asText()).startsWith("JETSINK_DATA_DIR is not set");
            assertThat(h.post("/notify/primary", WebhookFixtures.putPhoto(1)).statusCode()).isEqualTo(200);
        }
    }

    private static String keyValue(JsonNode target, String key) {
        for (JsonNode kv : target.path("key_values")) {
            if (kv.path("key").asText().equals(key)) {
                return kv.path("value").asText();
            }
        }
        return "";
    }

    private static List<String> persisted(DaemonHarness h) throws Exception {
        Path dir = h.queueRoot.resolve("data").resolve(AppliedTargetStore.DIRECTORY);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}

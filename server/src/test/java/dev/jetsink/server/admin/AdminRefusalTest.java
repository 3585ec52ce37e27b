package dev.jetsink.server.admin;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.WebhookFixtures;
import dev.jetsink.testkit.FaultProxy;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a {@code PUT} refuses (DESIGN.md "Admin API"): invalid values with the startup texts, a
 * broker it cannot reach within 5 s, a stream that fails validation such as a sealed one. A refused
 * target is neither applied nor persisted.
 */
class AdminRefusalTest {

    private static DaemonHarness harness() throws Exception {
        DaemonHarness h = new DaemonHarness().withoutTargets(TargetKind.NOTIFY).withoutTargets(TargetKind.AUDIT);
        AdminCalls.configure(h);
        return h.start();
    }

    @Test
    void invalidValuesAreRefusedWithEveryProblemInTheStartupTexts() throws Exception {
        try (DaemonHarness h = harness()) {
            AdminCalls admin = new AdminCalls(h);
            HttpResponse<String> r = admin.put(TargetKind.NOTIFY, "primary", Map.of(
                "address", h.nats.url(), "subject", "events",
                "jetstream_enable", "on", "jetstream_ack_timeout_secs", "5", "tls_required", "maybe"));
            assertThat(r.statusCode()).isEqualTo(400);
            String error = AdminCalls.json(r).get("error").asText();
            assertThat(error).startsWith("invalid NATS configuration: ")
                .contains("jetstream_ack_timeout_secs must be between 10 and 120 seconds")
                .contains("jetstream_stream_name is required when jetstream_enable is on")
                .contains("queue_dir is required when jetstream_enable is on")
                .contains("Invalid tls_required boolean value: maybe (accepted values include on, off, true, false, "
                    + "yes, no, 1, 0)");
            assertNothingApplied(h, admin);
        }
    }

    @Test
    void mistypedKeyIsRefusedWithASuggestion() throws Exception {
        try (DaemonHarness h = harness()) {
            AdminCalls admin = new AdminCalls(h);
            HttpResponse<String> r = admin.put(TargetKind.AUDIT, "archive", Map.of(
                "address", h.nats.url(), "subject", "events", "jetstrem_enable", "on"));
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(AdminCalls.json(r).get("error").asText()).startsWith("invalid NATS configuration: ")
                .contains("jetstrem_enable").contains("jetstream_enable");
        }
    }

    @Test
    void malformedBodyIsRefused() throws Exception {
        try (DaemonHarness h = harness()) {
            HttpResponse<String> r = new AdminCalls(h).putRaw(TargetKind.NOTIFY, "primary", "{\"address\":\"x\"}", "");
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(AdminCalls.json(r).get("error").asText()).startsWith("invalid NATS configuration: body must be");
        }
    }

    @Test
    void unreachableServerIsRefusedQuickly() throws Exception {
        try (DaemonHarness h = harness()) {
            AdminCalls admin = new AdminCalls(h);
            int closedPort;
            try (ServerSocket s = new ServerSocket(0)) {
                closedPort = s.getLocalPort();
            }
            long start = System.nanoTime();
            HttpResponse<String> r = admin.put(TargetKind.NOTIFY, "primary",
                Map.of("address", "127.0.0.1:" + closedPort, "subject", "events"));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(AdminCalls.json(r).get("error").asText()).startsWith("nats connectivity check failed: ")
                .contains("127.0.0.1:" + closedPort);
            assertThat(took).isLessThan(Duration.ofSeconds(6));
            assertNothingApplied(h, admin);
        }
    }

    @Test
    void silentServerIsRefusedWithinFiveSeconds() throws Exception {
        try (DaemonHarness h = harness(); FaultProxy proxy = FaultProxy.in(h.nats)) {
            proxy.blackhole();
            AdminCalls admin = new AdminCalls(h);
            long start = System.nanoTime();
            HttpResponse<String> r = admin.put(TargetKind.NOTIFY, "primary",
                Map.of("address", proxy.url(), "subject", "events"));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(AdminCalls.json(r).get("error").asText()).startsWith("nats connectivity check failed: ");
            assertThat(took).as("bounded by the 5 s check").isLessThan(Duration.ofSeconds(6));
            assertNothingApplied(h, admin);
        }
    }

    @Test
    void sealedStreamIsRefusedNamingTheSeal() throws Exception {
        try (DaemonHarness h = harness()) {
            Streams.create(h.admin(), StreamSpec.of("SEALED", "sealed.events").duplicateWindow(Duration.ofSeconds(274)).build());
            Streams.seal(h.admin(), "SEALED");
            AdminCalls admin = new AdminCalls(h);
            HttpResponse<String> r = admin.put(TargetKind.AUDIT, "archive", admin.jetStream("SEALED", "sealed.events"));
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(AdminCalls.json(r).get("error").asText())
                .isEqualTo("nats connectivity check failed: stream validation failed: stream SEALED is sealed");
            assertThat(h.post("/audit/archive", WebhookFixtures.auditEntry(1)).statusCode()).isEqualTo(404);
        }
    }

    @Test
    void streamThatDoesNotCaptureTheSubjectIsRefused() throws Exception {
        try (DaemonHarness h = harness()) {
            Streams.create(h.admin(), StreamSpec.of("OTHER", "other.events").duplicateWindow(Duration.ofSeconds(274)).build());
            AdminCalls admin = new AdminCalls(h);
            HttpResponse<String> r = admin.put(TargetKind.NOTIFY, "primary", admin.jetStream("OTHER", "rustfs.events"),
                "?dry_run=true");
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(AdminCalls.json(r).get("error").asText()).startsWith("nats connectivity check failed: ")
                .contains("does not capture subject rustfs.events");
        }
    }

    @Test
    void enableOffIsRefused() throws Exception {
        try (DaemonHarness h = harness()) {
            HttpResponse<String> r = new AdminCalls(h).put(TargetKind.NOTIFY, "primary",
                Map.of("enable", "off", "address", h.nats.url(), "subject", "events"));
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(AdminCalls.json(r).get("error").asText()).startsWith("invalid NATS configuration: enable is off");
        }
    }

    private static void assertNothingApplied(DaemonHarness h, AdminCalls admin) throws Exception {
        assertThat(AdminCalls.json(admin.list(TargetKind.NOTIFY)).get("targets")).isEmpty();
        assertThat(AdminCalls.json(admin.list(TargetKind.AUDIT)).get("targets")).isEmpty();
        assertThat(h.queueRoot.resolve("data").resolve(AppliedTargetStore.DIRECTORY)).doesNotExist();
    }
}

package dev.jetsink.server.ingest;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.WebhookFixtures;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** 503 answers of the ingest: a queue at its limit and a target whose init failed (DESIGN.md "Daemon"). */
class IngestRejectionTest {

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return Json.READER.readTree(r.body());
    }

    @Test
    void queueAtLimitAnswers503WithRetryAfterAndQueuesOnNoTarget() throws Exception {
        try (DaemonHarness h = new DaemonHarness()) {
            // Neither target can deliver (their stream does not exist), so queued entries stay.
            h.withoutTargets(TargetKind.NOTIFY)
                .with(h.jetStreamTarget(TargetKind.NOTIFY, "_SMALL", "MISSING"))
                .with(h.jetStreamTarget(TargetKind.NOTIFY, "_ROOMY", "MISSING"))
                .with(Map.of("RUSTFS_NOTIFY_NATS_QUEUE_LIMIT_SMALL", "3"));
            h.start();
            assertThat(h.post("/notify", WebhookFixtures.twoRecords()).statusCode()).isEqualTo(200);
            HttpResponse<String> full = h.post("/notify", WebhookFixtures.twoRecords());
            assertThat(full.statusCode()).isEqualTo(503);
            assertThat(full.headers().firstValue("Retry-After")).isPresent();
            assertThat(json(full).get("error").asText()).isEqualTo("queue full: notify small:nats is at queue_limit 3");
            assertThat(h.target(TargetKind.NOTIFY, "roomy").queueLength())
                .as("all or nothing: the target with room queued nothing of the rejected request").isEqualTo(2);
            assertThat(h.target(TargetKind.NOTIFY, "small").queueLength()).isEqualTo(2);
            assertThat(h.target(TargetKind.NOTIFY, "small").counters().failedCount()).as("ingest rejections count").isEqualTo(2);
            assertThat(h.post("/notify/small", WebhookFixtures.putPhoto(1)).statusCode())
                .as("one more still fits on the small target alone").isEqualTo(200);
            assertThat(h.post("/notify/small", WebhookFixtures.putPhoto(2)).statusCode()).isEqualTo(503);
        }
    }

    @Test
    void sealedStreamTargetAnswers503AndTheOthersKeepServing() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            Streams.create(h.admin(), StreamSpec.of("SEALED", "sealed.events").duplicateWindow(Duration.ofSeconds(274)).build());
            Streams.seal(h.admin(), "SEALED");
            h.with(h.jetStreamTarget(TargetKind.NOTIFY, "_ARCHIVE", "SEALED", "sealed.events")).start();
            HttpResponse<String> all = h.post("/notify", WebhookFixtures.putPhoto(1));
            assertThat(all.statusCode()).isEqualTo(503);
            assertThat(all.headers().firstValue("Retry-After")).hasValue("60");
            assertThat(json(all).get("error").asText()).isEqualTo("target unavailable: stream SEALED is sealed");
            assertThat(h.target(TargetKind.NOTIFY, "_").counters().acceptedCount()).as("nothing queued on the healthy target").isZero();
            assertThat(h.post("/notify/archive", WebhookFixtures.putPhoto(2)).statusCode()).isEqualTo(503);
            assertThat(h.post("/notify/_", WebhookFixtures.putPhoto(3)).statusCode()).isEqualTo(200);
            assertThat(h.post("/audit", WebhookFixtures.auditEntry(1)).statusCode()).isEqualTo(200);
            assertThat(h.target(TargetKind.NOTIFY, "archive").counters().failedCount())
                .as("each event the unavailable target refused is an ingest rejection").isEqualTo(2);
            assertThat(h.target(TargetKind.NOTIFY, "_").counters().failedCount())
                .as("the healthy target refused nothing itself").isZero();
        }
    }
}

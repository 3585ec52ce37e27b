package dev.jetsink.server.ingest;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.WebhookFixtures;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The HTTP ingest against the running daemon: real sockets, real nats-server (DESIGN.md "Daemon"). */
class IngestTest {

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return Json.READER.readTree(r.body());
    }

    @Test
    void minioWebhookIsAcknowledgedAfterQueueingAndDelivered() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start()) {
            HttpResponse<String> r = h.post("/notify", WebhookFixtures.putPhoto(1));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(json(r).get("accepted").asInt()).isEqualTo(1);
            assertThat(h.target(TargetKind.NOTIFY, "_").counters().acceptedCount()).isEqualTo(1);
            await().atMost(DaemonHarness.AWAIT).until(() -> h.readStream(DaemonHarness.STREAM).size() == 1);
            StoredMessage m = h.readStream(DaemonHarness.STREAM).get(0);
            assertThat(m.msgId()).isPresent();
            JsonNode published = Json.READER.readTree(m.text());
            assertThat(published.get("Key").asText()).isEqualTo("photos/my photo 1.jpg");
            assertThat(published.at("/Records/0/object_name").asText()).isEqualTo("my+photo+1.jpg");
        }
    }

    @Test
    void aTemplatedSubjectRoutesByBucketAndTheRequestsTraceparentIsOnTheStoredMessage() throws Exception {
        String traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        try (DaemonHarness h = new DaemonHarness()) {
            h.with(Map.of("RUSTFS_NOTIFY_NATS_SUBJECT", "rustfs.routed.{bucket}.{event}"));
            Streams.create(h.admin(), StreamSpec.of("ROUTED", "rustfs.routed.*.*.*").duplicateWindow(Duration.ofSeconds(274))
                .build());
            h.with(Map.of("RUSTFS_NOTIFY_NATS_JETSTREAM_STREAM_NAME", "ROUTED")).start();
            HttpResponse<String> r = h.send(h.webhook("/notify", WebhookFixtures.putPhoto(1))
                .header("traceparent", traceparent).header("tracestate", "rustfs=1").build());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            HttpResponse<String> untraced = h.post("/notify", WebhookFixtures.putPhoto(2));
            assertThat(untraced.statusCode()).as(untraced.body()).isEqualTo(200);
            await().atMost(DaemonHarness.AWAIT).until(() -> h.readStream("ROUTED").size() == 2);
            List<StoredMessage> stored = h.readStream("ROUTED");
            assertThat(stored).extracting(StoredMessage::subject)
                .containsOnly("rustfs.routed.photos.ObjectCreated.Put");
            assertThat(stored.get(0).header("traceparent")).contains(traceparent);
            assertThat(stored.get(0).header("tracestate")).contains("rustfs=1");
            assertThat(stored.get(0).header("Jetsink-Key")).contains("my photo 1.jpg");
            assertThat(stored.get(1).header("traceparent")).isEmpty();
        }
    }

    @Test
    void rustfsWebhookIsAcknowledgedAndItsUnknownFieldsReachTheStream() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start()) {
            HttpResponse<String> r = h.post("/notify", WebhookFixtures.rustfsMultipartComplete(7));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            await().atMost(DaemonHarness.AWAIT).until(() -> h.readStream(DaemonHarness.STREAM).size() == 1);
            JsonNode published = Json.READER.readTree(h.readStream(DaemonHarness.STREAM).get(0).text());
            assertThat(published.get("EventName").asText()).isEqualTo("s3:ObjectCreated:CompleteMultipartUpload");
            assertThat(published.get("Key").asText()).isEqualTo("backups/db dump 7.tar.gz");
            assertThat(published.at("/Records/0/object_name").asText()).isEqualTo("db+dump+7.tar.gz");
            assertThat(published.at("/Records/0/data/rustfsExtension/tier").asText()).isEqualTo("hot");
            assertThat(published.at("/Records/0/data/eventSource").asText()).isEqualTo("rustfs:s3");
        }
    }

    @Test
    void webhookWithSeveralRecordsQueuesOneEventPerRecord() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start()) {
            HttpResponse<String> r = h.post("/notify/_", WebhookFixtures.twoRecords());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(json(r).get("accepted").asInt()).isEqualTo(2);
            await().atMost(DaemonHarness.AWAIT).until(() -> h.readStream(DaemonHarness.STREAM).size() == 2);
        }
    }

    @Test
    void bareS3EventRecordIsAccepted() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start()) {
            HttpResponse<String> r = h.post("/notify", WebhookFixtures.record("s3:ObjectCreated:Put", "photos", "x.jpg", 3));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(json(r).get("accepted").asInt()).isEqualTo(1);
        }
    }

    @Test
    void auditAcceptsOneEntryAnArrayAndNewlineDelimitedEntries() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start()) {
            HttpResponse<String> one = h.post("/audit", WebhookFixtures.auditEntry(1));
            HttpResponse<String> array = h.post("/audit", "[" + WebhookFixtures.auditEntry(2) + ","
                + WebhookFixtures.auditEntry(3) + "]");
            HttpResponse<String> ndjson = h.post("/audit/_", WebhookFixtures.auditEntry(4) + "\n"
                + WebhookFixtures.auditEntry(5) + "\n" + WebhookFixtures.auditEntry(6) + "\n");
            assertThat(List.of(one.statusCode(), array.statusCode(), ndjson.statusCode())).containsOnly(200);
            assertThat(json(one).get("accepted").asInt()).isEqualTo(1);
            assertThat(json(array).get("accepted").asInt()).isEqualTo(2);
            assertThat(json(ndjson).get("accepted").asInt()).isEqualTo(3);
            await().atMost(DaemonHarness.AWAIT).until(() -> h.readStream(DaemonHarness.STREAM).size() == 6);
            assertThat(h.readStream(DaemonHarness.STREAM)).allSatisfy(m ->
                assertThat(m.text()).doesNotContain("AWS4-HMAC-SHA256").contains("\"Authorization\":\"***\""));
        }
    }

    @Test
    void malformedBodyAnswers400AndQueuesNothing() throws Exception {
        try (DaemonHarness h = new DaemonHarness().start()) {
            String secondRecordBroken = "{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"photos/a\",\"Records\":["
                + WebhookFixtures.record("s3:ObjectCreated:Put", "photos", "a", 1) + ",{\"eventName\":\"s3:ObjectCreated:Put\"}]}";
            for (String body : List.of("{not json", "", secondRecordBroken, "[1,2]")) {
                HttpResponse<String> r = h.post("/notify", body);
                assertThat(r.statusCode()).as(body).isEqualTo(400);
                assertThat(json(r).get("error").asText()).startsWith("malformed notify body: ");
            }
            HttpResponse<String> audit = h.post("/audit", WebhookFixtures.auditEntry(1) + "\n{oops\n");
            assertThat(audit.statusCode()).isEqualTo(400);
            assertThat(json(audit).get("error").asText()).contains("line 2");
            assertNothingQueued(h);
        }
    }

    @Test
    void unknownTargetAnswers404AndQueuesNothing() throws Exception {
        try (DaemonHarness h = new DaemonHarness().start()) {
            HttpResponse<String> r = h.post("/notify/nosuch", WebhookFixtures.putPhoto(1));
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(json(r).get("error").asText()).isEqualTo("unknown notify target: nosuch");
            assertThat(h.post("/elsewhere", "{}").statusCode()).isEqualTo(404);
            assertNothingQueued(h);
        }
    }

    @Test
    void bodyOver4MiBAnswers413AndQueuesNothing() throws Exception {
        try (DaemonHarness h = new DaemonHarness().start()) {
            String big = "[" + ("{\"pad\":\"" + "x".repeat(1000) + "\"},").repeat(4300) + "{}]";
            HttpResponse<String> r = h.post("/audit", big);
            assertThat(r.statusCode()).isEqualTo(413);
            assertThat(json(r).get("error").asText()).contains("4194304");
            assertNothingQueued(h);
            assertThat(h.post("/audit", WebhookFixtures.auditEntry(1)).statusCode())
                .as("the daemon keeps serving").isEqualTo(200);
        }
    }

    @Test
    void ingestTokenIsRequiredWhenConfigured() throws Exception {
        try (DaemonHarness h = new DaemonHarness()) {
            h.env.put("JETSINK_INGEST_TOKEN", "s3cr3t-ingest");
            h.start();
            HttpResponse<String> missing = h.post("/notify", WebhookFixtures.putPhoto(1));
            HttpResponse<String> wrong = h.send(h.webhook("/notify", WebhookFixtures.putPhoto(1))
                .header("Authorization", "Bearer s3cr3t-ingesT").build());
            assertThat(missing.statusCode()).isEqualTo(401);
            assertThat(wrong.statusCode()).isEqualTo(401);
            assertThat(wrong.body()).doesNotContain("s3cr3t");
            assertNothingQueued(h);
            HttpResponse<String> right = h.send(h.webhook("/notify", WebhookFixtures.putPhoto(1))
                .header("Authorization", "Bearer s3cr3t-ingest").build());
            assertThat(right.statusCode()).as(right.body()).isEqualTo(200);
        }
    }

    @Test
    void getOnAnIngestPathIsRefused() throws Exception {
        try (DaemonHarness h = new DaemonHarness().start()) {
            HttpResponse<String> r = h.send(HttpRequest.newBuilder(h.uri("/notify")).GET().build());
            assertThat(r.statusCode()).isEqualTo(405);
        }
    }

    private static void assertNothingQueued(DaemonHarness h) {
        for (TargetKind kind : TargetKind.values()) {
            NatsTarget t = h.target(kind, "_");
            assertThat(t.queueLength()).as(t.displayId() + " queue").isZero();
            assertThat(t.counters().acceptedCount()).as(t.displayId() + " accepted").isZero();
        }
    }
}

package dev.jetsink.server.ingest;

import dev.jetsink.internal.event.Json;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.MetricsText;
import dev.jetsink.server.testing.WebhookFixtures;
import dev.jetsink.testkit.StoredMessage;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Content-derived {@code Nats-Msg-Id}s against a real nats-server: a store's re-send of
 * the same record is stored once; different records, bodies and targets are not confused.
 */
@Tag("broker")
class MsgIdDedupTest {

    @Test
    void theSameRecordPostedTwiceIsStoredOnceAndBothAnswersAre200() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start()) {
            HttpResponse<String> first = h.post("/notify", WebhookFixtures.putPhoto(1));
            HttpResponse<String> again = h.post("/notify", WebhookFixtures.putPhoto(1));
            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(again.statusCode()).as("a re-send is still accepted").isEqualTo(200);
            awaitQueueEmpty(h, TargetKind.NOTIFY, "_");
            assertThat(h.readStream(DaemonHarness.STREAM)).hasSize(1);
            assertThat(MetricsText.sum(MetricsText.samples(h.get("/metrics").body()), "jetsink_duplicate_acks_total"))
                .as("the broker's duplicate ack is counted").isEqualTo(1.0);
        }
    }

    @Test
    void aRecordWithTheSameMembersInAnotherOrderAndSpacingIsTheSameEvent() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start()) {
            String compact = WebhookFixtures.putPhoto(7);
            com.fasterxml.jackson.databind.JsonNode tree = Json.READER.readTree(compact);
            String pretty = Json.PRETTY
                .writeValueAsString(reversed(tree));
            assertThat(h.post("/notify", compact).statusCode()).isEqualTo(200);
            assertThat(h.post("/notify", pretty).statusCode()).isEqualTo(200);
            awaitQueueEmpty(h, TargetKind.NOTIFY, "_");
            assertThat(h.readStream(DaemonHarness.STREAM)).hasSize(1);
        }
    }

    @Test
    void aRequestWhoseClientLeftBeforeTheAnswerAndThenRetriedIsStoredOnce() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start()) {
            byte[] body = WebhookFixtures.putPhoto(5).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            try (java.net.Socket s = new java.net.Socket("127.0.0.1", h.daemon.address().getPort())) {
                s.getOutputStream().write(("POST /notify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                s.getOutputStream().write(body);
                s.getOutputStream().flush();
            } // gone before any answer, like a sender that timed out
            assertThat(h.post("/notify", WebhookFixtures.putPhoto(5)).statusCode()).isEqualTo(200);
            await().atMost(DaemonHarness.AWAIT).until(() -> h.target(TargetKind.NOTIFY, "_").queueLength() == 0
                && h.daemon.gate().inside() == 0);
            assertThat(h.readStream(DaemonHarness.STREAM)).hasSize(1);
        }
    }

    @Test
    void eachRecordOfOneBodyGetsItsOwnId() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start()) {
            assertThat(h.post("/notify", WebhookFixtures.twoRecords()).statusCode()).isEqualTo(200);
            awaitQueueEmpty(h, TargetKind.NOTIFY, "_");
            List<StoredMessage> stored = h.readStream(DaemonHarness.STREAM);
            assertThat(stored).hasSize(2);
            assertThat(stored.stream().map(m -> m.msgId().orElseThrow()).distinct()).hasSize(2);
        }
    }

    @Test
    void twoTargetsOfOneKindOnOneStreamBothStoreTheRecord() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            h.with(h.jetStreamTarget(TargetKind.NOTIFY, "_SECOND", DaemonHarness.STREAM)).start();
            assertThat(h.post("/notify", WebhookFixtures.putPhoto(3)).statusCode()).isEqualTo(200);
            awaitQueueEmpty(h, TargetKind.NOTIFY, "_");
            awaitQueueEmpty(h, TargetKind.NOTIFY, "second");
            await().atMost(DaemonHarness.AWAIT).until(() -> h.readStream(DaemonHarness.STREAM).size() == 2);
            List<StoredMessage> stored = h.readStream(DaemonHarness.STREAM);
            assertThat(stored.stream().map(m -> m.msgId().orElseThrow()).distinct()).hasSize(2);
        }
    }

    @Test
    void withMsgIdRandomARepeatedRecordIsStoredAgain() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            h.with(Map.of("RUSTFS_NOTIFY_NATS_MSG_ID", "random")).start();
            assertThat(h.post("/notify", WebhookFixtures.putPhoto(1)).statusCode()).isEqualTo(200);
            assertThat(h.post("/notify", WebhookFixtures.putPhoto(1)).statusCode()).isEqualTo(200);
            awaitQueueEmpty(h, TargetKind.NOTIFY, "_");
            await().atMost(DaemonHarness.AWAIT).until(() -> h.readStream(DaemonHarness.STREAM).size() == 2);
        }
    }

    private static void awaitQueueEmpty(DaemonHarness h, TargetKind kind, String id) {
        await().atMost(DaemonHarness.AWAIT).until(() -> h.target(kind, id).queueLength() == 0);
    }

    // The members of every object in reverse order: the same record, written differently.
    private static com.fasterxml.jackson.databind.JsonNode reversed(com.fasterxml.jackson.databind.JsonNode node) {
        if (node.isObject()) {
            List<String> names = new java.util.ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            java.util.Collections.reverse(names);
            com.fasterxml.jackson.databind.node.ObjectNode out = Json.object();
            names.forEach(n -> out.set(n, reversed(node.get(n))));
            return out;
        }
        if (node.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode out = Json.NODES.arrayNode();
            node.forEach(e -> out.add(reversed(e)));
            return out;
        }
        return node;
    }
}

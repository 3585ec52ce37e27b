package dev.jetsink.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.Nats;
import io.nats.client.PublishOptions;
import io.nats.client.api.PublishAck;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class StreamsTest {

    private static NatsServer nats;
    private static Connection conn;

    @BeforeAll
    static void startServer() throws Exception {
        nats = NatsServer.startDefault();
        conn = Nats.connect(nats.url());
    }

    @AfterAll
    static void stopServer() throws Exception {
        conn.close();
        nats.close();
    }

    @Test
    void readAllReturnsEveryMessageWithHeadersInOrderSkippingDeleted() throws Exception {
        Streams.create(conn, StreamSpec.of("READ", "read.>").build());
        JetStream js = conn.jetStream();
        for (int i = 1; i <= 5; i++) {
            Headers h = new Headers().add("k", "v" + i);
            js.publish(NatsMessage.builder().subject("read." + i).headers(h)
                    .data(("m" + i).getBytes(StandardCharsets.UTF_8)).build(),
                    PublishOptions.builder().messageId("id-" + i).build());
        }
        conn.jetStreamManagement().deleteMessage("READ", 3);

        List<StoredMessage> all = Streams.readAll(conn, "READ");

        assertThat(all).extracting(StoredMessage::seq).containsExactly(1L, 2L, 4L, 5L);
        assertThat(all).extracting(m -> m.msgId().orElseThrow())
                .containsExactly("id-1", "id-2", "id-4", "id-5");
        assertThat(all.get(3).subject()).isEqualTo("read.5");
        assertThat(all.get(3).header("k")).contains("v5");
        assertThat(all.get(3).text()).isEqualTo("m5");
    }

    @Test
    void readFromLeaderReadsWhatReadAllReadsSequenceBySequence() throws Exception {
        Streams.create(conn, StreamSpec.of("LEADREAD", "lead.>").build());
        JetStream js = conn.jetStream();
        for (int i = 1; i <= 600; i++) {
            Headers h = new Headers().add("k", "v" + i);
            js.publish(NatsMessage.builder().subject("lead." + i).headers(h)
                    .data(("m" + i).getBytes(StandardCharsets.UTF_8)).build(),
                    PublishOptions.builder().messageId("id-" + i).build());
        }
        js.publish("lead.plain", "no headers".getBytes(StandardCharsets.UTF_8));
        conn.jetStreamManagement().deleteMessage("LEADREAD", 3);
        conn.jetStreamManagement().deleteMessage("LEADREAD", 300);

        List<StoredMessage> bySeq = Streams.readFromLeader(conn, "LEADREAD");
        List<StoredMessage> consumed = Streams.readAll(conn, "LEADREAD");

        assertThat(bySeq).hasSize(599);
        assertThat(bySeq).extracting(StoredMessage::seq).doesNotContain(3L, 300L).isSorted();
        assertThat(bySeq).extracting(StoredMessage::seq).containsExactlyElementsOf(
                consumed.stream().map(StoredMessage::seq).toList());
        assertThat(bySeq).extracting(StoredMessage::text).containsExactlyElementsOf(
                consumed.stream().map(StoredMessage::text).toList());
        assertThat(bySeq.get(597).msgId()).contains("id-600");
        assertThat(bySeq.get(597).header("k")).contains("v600");
        assertThat(bySeq.get(597).subject()).isEqualTo("lead.600");
        assertThat(bySeq.get(598).headers()).isEmpty();
        assertThat(bySeq.get(598).text()).isEqualTo("no headers");
    }

    @Test
    void readAllOfAnEmptyStreamIsEmpty() {
        Streams.create(conn, StreamSpec.of("EMPTY", "empty").build());
        assertThat(Streams.readAll(conn, "EMPTY")).isEmpty();
    }

    @Test
    void readAllReadsTwentyThousandMessagesQuickly() throws Exception {
        Streams.create(conn, StreamSpec.of("BULK", "bulk").build());
        JetStream js = conn.jetStream();
        List<CompletableFuture<PublishAck>> acks = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            acks.add(js.publishAsync("bulk", new byte[100]));
            if (acks.size() == 1000) {
                CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get();
                acks.clear();
            }
        }
        CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get();

        long start = System.nanoTime();
        List<StoredMessage> all = Streams.readAll(conn, "BULK");
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(all).hasSize(20_000);
        assertThat(all.get(19_999).seq()).isEqualTo(20_000);
        System.out.println("readAll of 20000 messages took " + took.toMillis() + " ms");
    }

    @Test
    void sealedStreamRefusesPublishes() {
        Streams.create(conn, StreamSpec.of("SEAL", "seal").build());

        assertThat(Streams.seal(conn, "SEAL").getConfiguration().getSealed()).isTrue();

        assertThatThrownBy(() -> conn.jetStream().publish("seal", new byte[] {1}))
                .isInstanceOf(JetStreamApiException.class)
                .satisfies(e -> assertThat(((JetStreamApiException) e).getApiErrorCode())
                        .isEqualTo(10109));
    }

    @Test
    void specLimitsReachTheServer() {
        StreamSpec spec = StreamSpec.of("LIMITS", "limits.>").replicas(1).noAck(false)
                .duplicateWindow(Duration.ofSeconds(30)).maxMsgSize(2048)
                .maxAge(Duration.ofMinutes(5)).maxMsgs(100).discardNew(true).build();

        var config = Streams.create(conn, spec).getConfiguration();

        assertThat(config.getDuplicateWindow()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.getMaximumMessageSize()).isEqualTo(2048);
        assertThat(config.getMaxAge()).isEqualTo(Duration.ofMinutes(5));
        assertThat(config.getMaxMsgs()).isEqualTo(100);
        assertThat(config.getDiscardPolicy()).isEqualTo(io.nats.client.api.DiscardPolicy.New);
        Streams.delete(conn, "LIMITS");
        assertThatThrownBy(() -> Streams.state(conn, "LIMITS"))
                .isInstanceOf(IllegalStateException.class);
    }
}

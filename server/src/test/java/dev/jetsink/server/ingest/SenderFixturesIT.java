package dev.jetsink.server.ingest;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import dev.jetsink.server.testing.RawHttp;
import dev.jetsink.testkit.StoredMessage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The requests real object stores send (MinIO, RustFS, Ceph RGW; {@code resources/senders/}),
 * replayed byte for byte over a plain socket against {@code jetsink serve} with an ingest token:
 * each is answered 200 and stored once per record or audit entry, whatever its header casing,
 * auth form, {@code Expect} or batch headers. Only the request path and {@code Host} are
 * rewritten; Ceph requests get the Basic credentials curl derives from {@code user:token@} in
 * the endpoint URL, the only way Ceph can send a secret.
 */
class SenderFixturesIT {

    private static final String TOKEN = "s3cret";
    /**
     * One daemon serves every test (starting one takes seconds); each test gets a new stream of the
     * same name, so neither messages nor the duplicate window carry over, and compares counters
     * with their value before it.
     */
    private static FaultRig rig;

    @BeforeAll
    static void startRig() throws Exception {
        rig = FaultRig.notifyAndAudit();
        try {
            rig.env.put("JETSINK_INGEST_TOKEN", TOKEN);
            rig.startDaemon();
        } catch (Exception | Error e) {
            rig.close();
            throw e;
        }
    }

    @AfterAll
    static void stopRig() throws Exception {
        rig.close();
    }

    @BeforeEach
    void newStream() throws Exception {
        rig.recreateStream();
    }

    static Stream<Arguments> fixtures() {
        return Stream.of(
            Arguments.of("minio-notify-put.http", TargetKind.NOTIFY, List.of("photos/2025/cat 1.jpg")),
            Arguments.of("minio-notify-delete.http", TargetKind.NOTIFY, List.of("scratch/tmp/report final.csv")),
            Arguments.of("minio-audit-single.http", TargetKind.AUDIT, List.of("photos/PutObject")),
            Arguments.of("minio-audit-batch3.http", TargetKind.AUDIT,
                List.of("photos/PutObject", "photos/GetObject", "scratch/DeleteObject")),
            Arguments.of("rustfs-notify-put.http", TargetKind.NOTIFY, List.of("photos/2025/cat 1.jpg")),
            Arguments.of("rustfs-audit.http", TargetKind.AUDIT, List.of("photos/s3:PutObject")),
            Arguments.of("ceph-notify-put.http", TargetKind.NOTIFY, List.of("photos/2025/cat 1.jpg")),
            Arguments.of("ceph-rgw-real-persist-ObjectCreated-Put.http", TargetKind.NOTIFY,
                List.of("bkt-persist/a/hello.txt")),
            Arguments.of("ceph-rgw-real-persist-ObjectCreated-CompleteMultipartUpload.http", TargetKind.NOTIFY,
                List.of("bkt-persist/a/multi.bin")),
            Arguments.of("ceph-rgw-real-persist-ObjectRemoved-Delete.http", TargetKind.NOTIFY,
                List.of("bkt-persist/a/hello.txt")),
            Arguments.of("ceph-rgw-real-sync-ObjectCreated-Copy.http", TargetKind.NOTIFY, List.of("bkt-sync/a/copy.txt")));
    }

    @ParameterizedTest(name = "{0} is answered 200 and stored once per record")
    @MethodSource("fixtures")
    void senderRequestIsAnswered200AndStoredOncePerRecord(String fixture, TargetKind kind, List<String> keys)
        throws Exception {
        SenderRequest request = SenderRequest.load(fixture);
        if (fixture.startsWith("ceph-")) {
            assertThat(request.header("Authorization")).as("Ceph sends no Authorization of its own").isEmpty();
            request = request.withHeaderAfterHost("Authorization: " + SenderRequest.basic("ceph", TOKEN));
        }
        RawHttp.Response answer = replay(rig, request.toPath("/" + kind.label()));
        assertThat(answer.status()).as(answer.statusLine() + " " + answer.text()).isEqualTo(200);
        assertStoredKeys(rig, keys);
    }

    @Test
    void rustfsLivenessProbeHeadOfTheRootIsAnswered200() throws Exception {
        SenderRequest probe = SenderRequest.load("rustfs-liveness-head.http");
        assertThat(probe.requestLine()).isEqualTo("HEAD / HTTP/1.1");
        RawHttp.Response answer = replay(rig, probe);
        assertThat(answer.status()).as(answer.statusLine()).isEqualTo(200);
        assertThat(rig.streamCount()).isZero();
    }

    @Test
    void cephRequestWithoutCredentialsIsRefused401WhenATokenIsSet() throws Exception {
        SenderRequest request = SenderRequest.load("ceph-notify-put.http");
        double accepted = rig.metric(TargetKind.NOTIFY.metricPrefix() + "total_messages");
        RawHttp.Response answer = replay(rig, request);
        assertThat(answer.status()).as(answer.statusLine() + " " + answer.text()).isEqualTo(401);
        assertThat(rig.metric(TargetKind.NOTIFY.metricPrefix() + "total_messages")).isEqualTo(accepted);
        assertThat(rig.streamCount()).isZero();
    }

    @Test
    void minioAuditBatchWhoseCountHeaderSaysOneStoresEveryLine() throws Exception {
        SenderRequest request = SenderRequest.load("minio-audit-batch3.http")
            .replacingHeader("X-Minio-Webhook-Payload-Count", "X-Minio-Webhook-Payload-Count: 1");
        assertThat(request.header("X-Minio-Webhook-Payload-Count")).contains("1");
        RawHttp.Response answer = replay(rig, request);
        assertThat(answer.status()).as(answer.statusLine() + " " + answer.text()).isEqualTo(200);
        assertStoredKeys(rig, List.of("photos/PutObject", "photos/GetObject", "scratch/DeleteObject"));
    }

    /** The three ways a store can carry the ingest token. */
    enum TokenForm {
        /** MinIO notify, RustFS. */
        BEARER {
            @Override
            String header(String token) {
                return "Authorization: Bearer " + token;
            }
        },
        /** MinIO audit: the configured token verbatim. */
        BARE {
            @Override
            String header(String token) {
                return "Authorization: " + token;
            }
        },
        /** Ceph: {@code user:token@} in the endpoint URL, sent by libcurl as Basic. */
        BASIC_PASSWORD {
            @Override
            String header(String token) {
                return "Authorization: " + SenderRequest.basic("ceph", token);
            }
        };

        abstract String header(String token);
    }

    @ParameterizedTest(name = "the token as {0} is accepted")
    @EnumSource(TokenForm.class)
    void tokenIsAcceptedInEveryForm(TokenForm form) throws Exception {
        RawHttp.Response answer = RawHttp.exchange(port(rig), notifyRequest(rig, Optional.of(form.header(TOKEN)), 7));
        assertThat(answer.status()).as(answer.statusLine() + " " + answer.text()).isEqualTo(200);
        assertStoredKeys(rig, List.of(EventLoad.BUCKET + "/" + EventLoad.key(7)));
    }

    @ParameterizedTest(name = "a wrong token as {0} is refused with 401")
    @EnumSource(TokenForm.class)
    void wrongTokenIsRefused401InEveryForm(TokenForm form) throws Exception {
        double accepted = rig.metric(TargetKind.NOTIFY.metricPrefix() + "total_messages");
        RawHttp.Response answer = RawHttp.exchange(port(rig), notifyRequest(rig, Optional.of(form.header("s3cret-not")), 7));
        assertThat(answer.status()).as(answer.statusLine() + " " + answer.text()).isEqualTo(401);
        assertThat(rig.metric(TargetKind.NOTIFY.metricPrefix() + "total_messages")).isEqualTo(accepted);
        assertThat(rig.streamCount()).isZero();
    }

    private static int port(FaultRig rig) {
        return rig.base().getPort();
    }

    private static byte[] notifyRequest(FaultRig rig, Optional<String> authorization, int n) {
        byte[] body = EventLoad.body(n).getBytes(StandardCharsets.UTF_8);
        String head = "POST /notify HTTP/1.1\r\nHost: 127.0.0.1:" + port(rig) + "\r\n"
            + authorization.map(a -> a + "\r\n").orElse("")
            + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
        byte[] head2 = RawHttp.ascii(head);
        byte[] all = new byte[head2.length + body.length];
        System.arraycopy(head2, 0, all, 0, head2.length);
        System.arraycopy(body, 0, all, head2.length, body.length);
        return all;
    }

    private static RawHttp.Response replay(FaultRig rig, SenderRequest request) throws IOException {
        return request.replayTo(port(rig));
    }

    /**
     * Waits until both targets' queues are empty and the stream holds at least as many messages
     * as {@code keys}; then the stream must hold exactly one message per key, each with its own
     * {@code Nats-Msg-Id}.
     */
    private static void assertStoredKeys(FaultRig rig, List<String> keys) throws Exception {
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
            .until(() -> rig.notifyQueueLength() == 0 && rig.metric(TargetKind.AUDIT.queueLengthMetric()) == 0
                && rig.streamCount() >= keys.size());
        List<StoredMessage> stored = rig.readStream();
        List<String> storedKeys = new ArrayList<>();
        for (StoredMessage m : stored) {
            JsonNode envelope = Json.READER.readTree(m.data());
            String key = envelope.path("Key").asText();
            storedKeys.add(key);
            assertThat(key).as("Key starts with the record's bucket_name")
                .startsWith(envelope.path("Records").path(0).path("bucket_name").asText() + "/");
        }
        assertThat(storedKeys).containsExactlyInAnyOrderElementsOf(keys);
        assertThat(stored.stream().map(m -> m.msgId().orElse("")).filter(id -> !id.isEmpty()).distinct())
            .as("distinct Nats-Msg-Id").hasSize(keys.size());
    }
}

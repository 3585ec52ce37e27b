package dev.jetsink.server.http;

import dev.jetsink.internal.event.Json;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import dev.jetsink.server.testing.RawHttp;
import dev.jetsink.testkit.StoredMessage;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Malformed and edge-case HTTP against {@code jetsink serve}, written raw on a socket. Every
 * malformed request gets a 4xx status line before the connection closes (a reset or a silent
 * close fails the test: a sender cannot tell that from a crash), no malformed byte becomes an
 * event, the probes answer {@code HEAD}, and error bodies quote only a bounded amount of what
 * the client sent.
 */
class HttpEdgeIT {

    /** The header block limit the front enforces (request line and headers). */
    private static final int HEADER_LIMIT = 16 * 1024;
    /** An error body quotes at most 200 characters of the request; the rest is the message. */
    private static final int ERROR_BODY_MAX = 300;
    private static final String ACCEPTED = TargetKind.NOTIFY.metricPrefix() + "total_messages";

    /**
     * One daemon serves every test but the broker restart (starting one takes seconds); each test
     * gets a new stream of the same name and compares the accepted count with its value before.
     */
    private static FaultRig shared;
    private double acceptedBefore;

    @BeforeAll
    static void startDaemon() throws Exception {
        shared = FaultRig.notifyOnly();
        try {
            shared.startDaemon();
        } catch (Exception | Error e) {
            shared.close();
            throw e;
        }
    }

    @AfterAll
    static void stopDaemon() throws Exception {
        shared.close();
    }

    @BeforeEach
    void newStream() throws Exception {
        shared.recreateStream();
        acceptedBefore = shared.metric(ACCEPTED);
    }

    @Test
    void malformedChunkSizeIsAnswered4xx() throws Exception {
        FaultRig rig = shared;
        RawHttp.Response r = RawHttp.exchange(port(rig), RawHttp.ascii("POST /notify HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"));
        assertThat(r.status()).as(r.statusLine()).isBetween(400, 499);
        assertNothingAccepted(rig);
    }

    @Test
    void headerLongerThan16KiBIsAnswered431() throws Exception {
        FaultRig rig = shared;
        String big = "X-Big: " + "a".repeat(HEADER_LIMIT + 1) + "\r\n";
        RawHttp.Response r = RawHttp.exchange(port(rig), notifyRequest(big, EventLoad.body(1)));
        assertThat(r.status()).as(r.statusLine()).isEqualTo(431);
        assertNothingAccepted(rig);
    }

    @Test
    void threeHundredSmallHeadersTotallingOver16KiBAreAnswered431() throws Exception {
        FaultRig rig = shared;
        StringBuilder headers = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            headers.append("X-Filler-").append(i).append(": ").append("v".repeat(60)).append("\r\n");
        }
        assertThat(headers.length()).isGreaterThan(HEADER_LIMIT);
        RawHttp.Response r = RawHttp.exchange(port(rig), notifyRequest(headers.toString(), EventLoad.body(1)));
        assertThat(r.status()).as(r.statusLine()).isEqualTo(431);
        assertNothingAccepted(rig);
    }

    @Test
    void chunkLongerThanItsDeclaredSizeIsAnswered400() throws Exception {
        FaultRig rig = shared;
        String body = EventLoad.body(1);
        // declares 16 bytes, then sends the whole body as that chunk
        RawHttp.Response r = RawHttp.exchange(port(rig), RawHttp.ascii("POST /notify HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n" + body + "\r\n0\r\n\r\n"));
        assertThat(r.status()).as(r.statusLine()).isEqualTo(400);
        assertNothingAccepted(rig);
    }

    @Test
    void bytesBeyondContentLengthAreNeverTakenAsAnEvent() throws Exception {
        FaultRig rig = shared;
        try (RawHttp c = RawHttp.connect(port(rig), Duration.ofSeconds(10))) {
            // the garbage is a valid event body, the worst case: it must not be stored
            String garbage = EventLoad.body(2) + "\r\n\r\n";
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes(notifyRequest("", EventLoad.body(1)));
            request.writeBytes(garbage.getBytes(StandardCharsets.UTF_8));
            c.write(request.toByteArray());
            RawHttp.Response first = c.readResponse(false);
            assertThat(first.status()).as(first.statusLine() + " " + first.text()).isEqualTo(200);
            Optional<RawHttp.Response> second;
            try {
                second = Optional.of(c.readResponse(false));
            } catch (AssertionError closed) {
                // closing the connection on the garbage is the other acceptable answer
                second = Optional.empty();
            }
            second.ifPresent(r -> assertThat(r.status()).as("the garbage is answered as a bad request: " + r.statusLine())
                .isEqualTo(400));
            assertThat(rig.metric(ACCEPTED)).isEqualTo(acceptedBefore + 1);
            assertThat(rig.awaitDrained(1, Duration.ofSeconds(30))).isTrue();
            List<StoredMessage> stored = rig.readStream();
            assertThat(stored).hasSize(1);
            assertThat(Json.READER.readTree(stored.get(0).data()).path("Key").asText())
                .isEqualTo(EventLoad.BUCKET + "/" + EventLoad.key(1));
        }
    }

    @Test
    void headOfHealthIsAnswered200WithoutABody() throws Exception {
        assertHeadAnswered200WithoutABody("/health");
    }

    @Test
    void headOfMetricsIsAnswered200WithoutABody() throws Exception {
        assertHeadAnswered200WithoutABody("/metrics");
    }

    @Test
    void getOfTheRootIsAnswered200NamingTheService() throws Exception {
        FaultRig rig = shared;
        RawHttp.Response r = RawHttp.exchange(port(rig), get("GET", "/"));
        assertThat(r.status()).as(r.statusLine()).isEqualTo(200);
        assertThat(r.text()).containsIgnoringCase("jetsink");
    }

    @Test
    void headOfTheRootIsAnswered200() throws Exception {
        assertHeadAnswered200WithoutABody("/");
    }

    @Test
    void unknownPathNearTheHeaderLimitIsAnswered404WithAShortBody() throws Exception {
        FaultRig rig = shared;
        RawHttp.Response r = RawHttp.exchange(port(rig), get("GET", "/" + "p".repeat(15_000)));
        assertThat(r.status()).as(r.statusLine()).isEqualTo(404);
        assertThat(r.body().length).as("error body: " + RawHttp.abbreviate(r.text())).isLessThanOrEqualTo(ERROR_BODY_MAX);
    }

    /**
     * The brief asks for 404 here; a 100 KB request line is also beyond the 16 KiB header limit,
     * which an HTTP parser checks first (Jetty answers 414 URI Too Long), so either is accepted.
     * What matters is that the answer does not echo the path back.
     */
    @Test
    void getOfA100KbPathIsAnsweredWithAShortError() throws Exception {
        FaultRig rig = shared;
        RawHttp.Response r = RawHttp.exchange(port(rig), get("GET", "/" + "p".repeat(100_000)));
        assertThat(r.status()).as(r.statusLine()).isIn(404, 414);
        assertThat(r.body().length).as("error body: " + RawHttp.abbreviate(r.text())).isLessThanOrEqualTo(ERROR_BODY_MAX);
    }

    @Test
    void postWhileNatsIsDownIsAnswered200AndReachesTheStreamAfterTheBrokerRestarts() throws Exception {
        try (FaultRig rig = FaultRig.notifyOnly().startDaemon()) { // its own broker, which it kills
            rig.nats.kill();
            long started = System.nanoTime();
            HttpResponse<String> answer = rig.http().send(HttpRequest.newBuilder(rig.base().resolve("/notify"))
                .timeout(Duration.ofSeconds(5)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(EventLoad.body(1))).build(), HttpResponse.BodyHandlers.ofString());
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            assertThat(took).isLessThanOrEqualTo(Duration.ofSeconds(5));
            rig.nats.restart();
            assertThat(rig.awaitDrained(1, Duration.ofSeconds(60))).as("delivered after the restart").isTrue();
            List<StoredMessage> stored = rig.readStream();
            assertThat(stored).hasSize(1);
            assertThat(Json.READER.readTree(stored.get(0).data()).path("Key").asText())
                .isEqualTo(EventLoad.BUCKET + "/" + EventLoad.key(1));
        }
    }

    /**
     * {@code HEAD path} then, on the same connection, {@code GET /health}: had the HEAD answer
     * carried a body, the next bytes read would be that body, not a status line.
     */
    private static void assertHeadAnswered200WithoutABody(String path) throws Exception {
        FaultRig rig = shared;
        try (RawHttp c = RawHttp.connect(port(rig), Duration.ofSeconds(10))) {
            awaitHealthy(rig);
            RawHttp.Response head = c.write(get("HEAD", path)).readResponse(true);
            assertThat(head.status()).as(head.statusLine()).isEqualTo(200);
            RawHttp.Response next = c.write(get("GET", "/health")).readResponse(false);
            assertThat(next.status()).as("the answer after HEAD's: " + next.statusLine()).isEqualTo(200);
        }
    }

    private static void awaitHealthy(FaultRig rig) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
            .until(() -> rig.http().send(HttpRequest.newBuilder(rig.base().resolve("/health")).GET().build(),
                HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
    }

    private void assertNothingAccepted(FaultRig rig) throws Exception {
        assertThat(rig.daemonAlive()).isTrue();
        assertThat(rig.metric(ACCEPTED)).isEqualTo(acceptedBefore);
        assertThat(rig.streamCount()).isZero();
    }

    private static int port(FaultRig rig) {
        return rig.base().getPort();
    }

    private static byte[] get(String method, String path) {
        return RawHttp.ascii(method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    }

    /** A notify POST with {@code extraHeaders} (each ending in CRLF) and a Content-Length body. */
    private static byte[] notifyRequest(String extraHeaders, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(RawHttp.ascii("POST /notify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + extraHeaders + "Content-Length: " + bytes.length + "\r\n\r\n"));
        out.writeBytes(bytes);
        return out.toByteArray();
    }
}

package dev.jetsink.server.http;

import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.RawHttp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * At {@code JETSINK_HTTP_MAX_CONNECTIONS} a new sender gets in at once: the connection idle
 * longest gives up its place, and a connection with a request in progress never does. Run against
 * the daemon in-process (real nats-server, real sockets) with a small cap; SlowClientIT holds the
 * default cap against 5 000 idle connections.
 */
class ConnectionCapTest {

    private static final int CAP = 64;
    private static final int NEWCOMERS = 200;
    /** Generous for a loaded machine; the old limit made an ordinary POST wait 2 s or more. */
    private static final Duration ANSWER_BUDGET = Duration.ofSeconds(1);
    private static final Duration AWAIT = Duration.ofSeconds(30);

    @Test
    void aNewConnectionAtTheCapClosesTheConnectionIdleLongest() throws Exception {
        try (DaemonHarness h = started(CAP); Connections c = new Connections(h)) {
            RawHttp first = c.open();
            List<RawHttp> usedSince = new ArrayList<>();
            for (int i = 1; i < CAP; i++) {
                RawHttp r = c.open();
                assertThat(c.post(r, i).status()).isEqualTo(200);
                usedSince.add(r);
            }
            awaitIdle(h, CAP);

            RawHttp newcomer = c.open();

            Awaitility.await().atMost(AWAIT).until(() -> Connections.closed(first));
            assertThat(evicted(h)).isEqualTo(1);
            assertThat(usedSince).as("connections used after the first stay open").noneMatch(Connections::closed);
            assertThat(c.post(newcomer, CAP).status()).isEqualTo(200);
        }
    }

    @Test
    void requestsInProgressAreNeverEvictedAndAnOrdinaryPostIsAnsweredAtOnce() throws Exception {
        try (DaemonHarness h = started(CAP); Connections c = new Connections(h)) {
            byte[] body = EventLoad.body(1_000).getBytes(StandardCharsets.UTF_8);
            RawHttp uploading = c.open().write(head(body.length)).write(Arrays.copyOf(body, body.length / 2));
            RawHttp inHeaders = c.open().write(RawHttp.ascii("POST /notify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty"));
            List<RawHttp> idleOnes = new ArrayList<>();
            for (int i = 0; i < CAP - 2; i++) {
                RawHttp r = c.open();
                if (i % 2 == 0) {
                    assertThat(c.post(r, i).status()).isEqualTo(200);
                }
                idleOnes.add(r);
            }
            awaitIdle(h, CAP - 2);

            List<RawHttp> newcomers = new ArrayList<>();
            for (int i = 0; i < NEWCOMERS; i++) {
                newcomers.add(c.open());
            }
            Awaitility.await().atMost(AWAIT).until(() -> evicted(h) == NEWCOMERS);
            List<RawHttp> idleAndNew = new ArrayList<>(idleOnes);
            idleAndNew.addAll(newcomers);
            Awaitility.await().atMost(AWAIT).until(() -> idleAndNew.stream().filter(Connections::closed).count() == NEWCOMERS);
            assertThat(Connections.closed(uploading)).as("the upload in progress was evicted").isFalse();
            assertThat(Connections.closed(inHeaders)).as("the request in its headers was evicted").isFalse();

            long started = System.nanoTime();
            RawHttp ordinary = c.open();
            RawHttp.Response answer = c.post(ordinary, 2_000);
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertThat(answer.status()).as(answer.text()).isEqualTo(200);
            assertThat(took).as("an ordinary POST at the cap").isLessThanOrEqualTo(ANSWER_BUDGET);
            assertThat(evicted(h)).isEqualTo(NEWCOMERS + 1);

            uploading.write(Arrays.copyOfRange(body, body.length / 2, body.length));
            assertThat(uploading.readResponse(false).status()).as("the upload completes").isEqualTo(200);
            byte[] second = EventLoad.body(1_001).getBytes(StandardCharsets.UTF_8);
            inHeaders.write(RawHttp.ascii("pe: application/json\r\nContent-Length: " + second.length + "\r\n\r\n")).write(second);
            assertThat(inHeaders.readResponse(false).status()).as("the request in its headers completes").isEqualTo(200);
        }
    }

    @Test
    void aSenderWhoseRequestFollowsTheConnectIsNotClosedByTheNextNewcomer() throws Exception {
        try (DaemonHarness h = started(1); Connections c = new Connections(h)) {
            for (int round = 0; round < 5; round++) {
                long evictedBefore = evicted(h);
                RawHttp sender = c.open();
                RawHttp next = c.open();
                // The request follows the connect, after the next newcomer is in: its place was chosen without it.
                Awaitility.await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).atMost(AWAIT)
                    .until(() -> h.daemon.http().openConnections() == 2 || evicted(h) > evictedBefore);
                byte[] body = EventLoad.body(round).getBytes(StandardCharsets.UTF_8);
                sender.write(head(body.length)).write(body);
                assertThat(c.status(sender)).as("round %d: the request written right after connecting", round).isEqualTo(200);
                sender.close();
                next.close();
                Awaitility.await().atMost(AWAIT).until(() -> h.daemon.http().openConnections() == 0);
            }
        }
    }

    @Test
    void whenEveryConnectionIsMidRequestNothingIsEvictedAndNewOnesWait() throws Exception {
        int cap = 4;
        ScheduledExecutorService dribbler = Executors.newSingleThreadScheduledExecutor();
        try (DaemonHarness h = started(cap); Connections c = new Connections(h)) {
            byte[] body = EventLoad.body(3_000).getBytes(StandardCharsets.UTF_8);
            List<RawHttp> uploads = new ArrayList<>();
            for (int i = 0; i < cap; i++) {
                uploads.add(c.open().write(head(body.length)).write(Arrays.copyOf(body, 1)));
            }
            // One body byte per upload every 250 ms: busy, and never silent for the at-limit idle timeout.
            int[] sent = {1};
            dribbler.scheduleAtFixedRate(() -> {
                synchronized (sent) {
                    if (sent[0] < body.length / 2) {
                        List<RawHttp> now;
                        synchronized (uploads) {
                            now = List.copyOf(uploads);
                        }
                        now.forEach(u -> c.writeQuietly(u, Arrays.copyOfRange(body, sent[0], sent[0] + 1)));
                        sent[0]++;
                    }
                }
            }, 250, 250, TimeUnit.MILLISECONDS);
            awaitIdle(h, 0);

            // Accepted first, it finds nothing idle: it stays, mid-upload too, and accepting stops.
            RawHttp overTheCap = c.open();
            synchronized (sent) {
                overTheCap.write(head(body.length)).write(Arrays.copyOf(body, sent[0]));
                synchronized (uploads) {
                    uploads.add(overTheCap);
                }
            }
            Awaitility.await().atMost(AWAIT).until(() -> h.daemon.gate().inside() == cap + 1);
            List<CompletableFuture<Integer>> waiting = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                byte[] late = EventLoad.body(3_001 + i).getBytes(StandardCharsets.UTF_8);
                RawHttp w = c.open().write(head(late.length)).write(late);
                waiting.add(CompletableFuture.supplyAsync(() -> c.status(w)));
            }
            // The accept already under way when accepting stopped may still let one in; never both.
            CompletableFuture<Void> both = CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new));
            assertThatThrownBy(() -> both.get(500, TimeUnit.MILLISECONDS))
                .as("both new POSTs answered while every connection was mid-request")
                .isInstanceOf(TimeoutException.class);
            // The one let in may be evicted once answered (idle then); no upload ever is.
            assertThat(uploads).as("connections mid-request evicted").noneMatch(Connections::closed);

            dribbler.shutdownNow();
            assertThat(dribbler.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
            for (RawHttp u : uploads) {
                u.write(Arrays.copyOfRange(body, sent[0], body.length));
                assertThat(u.readResponse(false).status()).as("every upload completes").isEqualTo(200);
            }
            // Idle now: they are evicted (or time out at the limit), and the POST waiting gets in.
            for (CompletableFuture<Integer> w : waiting) {
                assertThat(w.get(AWAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(200);
            }
        } finally {
            dribbler.shutdownNow();
        }
    }

    private static DaemonHarness started(int cap) throws IOException, InterruptedException {
        DaemonHarness h = new DaemonHarness();
        try {
            return h.with(Map.of("JETSINK_HTTP_MAX_CONNECTIONS", Integer.toString(cap))).withDefaultStream().start();
        } catch (IOException | InterruptedException | RuntimeException e) {
            try {
                h.close();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static void awaitIdle(DaemonHarness h, int idle) {
        Awaitility.await().atMost(AWAIT).until(() -> h.daemon.http().idleConnections() == idle);
    }

    private static long evicted(DaemonHarness h) {
        return h.daemon.http().idleEvicted();
    }

    private static byte[] head(int contentLength) {
        return RawHttp.ascii("POST /notify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: " + contentLength + "\r\n\r\n");
    }

    /** The test's client connections, all closed at the end. */
    private static final class Connections implements AutoCloseable {
        private final int port;
        private final List<RawHttp> all = new ArrayList<>();

        Connections(DaemonHarness h) {
            this.port = h.daemon.address().getPort();
        }

        RawHttp open() throws IOException {
            RawHttp c = RawHttp.connect(port, AWAIT);
            synchronized (all) {
                all.add(c);
            }
            return c;
        }

        /** One keep-alive notify POST on {@code c}, answered. */
        RawHttp.Response post(RawHttp c, int event) throws IOException {
            byte[] body = EventLoad.body(event).getBytes(StandardCharsets.UTF_8);
            c.write(head(body.length)).write(body);
            return c.readResponse(false);
        }

        /** The status of the next answer on {@code c}, read without a deadline of its own (the socket's). */
        int status(RawHttp c) {
            try {
                return c.readResponse(false).status();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        void writeQuietly(RawHttp c, byte[] bytes) {
            try {
                c.write(bytes);
            } catch (IOException e) {
                // the assertions on the upload's answer report it
            }
        }

        /** Whether the daemon closed {@code c}: a bounded read (10 ms) sees the end of the stream. */
        static boolean closed(RawHttp c) {
            try {
                c.setReadTimeout(Duration.ofMillis(10));
                return c.closedByPeer();
            } catch (IOException e) {
                return true;
            } finally {
                try {
                    c.setReadTimeout(AWAIT);
                } catch (IOException e) {
                    // closed: nothing left to read
                }
            }
        }

        @Override
        public void close() throws IOException {
            synchronized (all) {
                for (RawHttp c : all) {
                    c.close();
                }
            }
        }
    }
}

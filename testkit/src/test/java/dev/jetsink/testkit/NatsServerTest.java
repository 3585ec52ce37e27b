package dev.jetsink.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.api.PublishAck;
import io.nats.client.PublishOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
class NatsServerTest {

    @Test
    void fileStoredMessagesSurviveKillAndRestartOnTheSamePort() throws Exception {
        try (NatsServer nats = NatsServer.startDefault()) {
            int port = nats.port();
            try (Connection conn = Nats.connect(nats.url())) {
                Streams.create(conn, StreamSpec.of("KEEP", "keep.>").build());
                JetStream js = conn.jetStream();
                for (int i = 0; i < 10; i++) {
                    js.publish("keep.a", ("m" + i).getBytes(StandardCharsets.UTF_8));
                }
            }
            nats.kill();
            assertThat(nats.isAlive()).isFalse();

            nats.restart();

            assertThat(nats.port()).isEqualTo(port);
            try (Connection conn = Nats.connect(nats.url())) {
                assertThat(Streams.readAll(conn, "KEEP")).as(nats.logTail(20))
                        .extracting(StoredMessage::text)
                        .containsExactly("m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9");
            }
        }
    }

    @Test
    void pausedServerHoldsAPublishUntilResumed() throws Exception {
        try (NatsServer nats = NatsServer.startDefault();
             Connection conn = Nats.connect(new Options.Builder().server(nats.url())
                     .pingInterval(Duration.ofMinutes(1)).build())) {
            Streams.create(conn, StreamSpec.of("SLOW", "slow").build());
            JetStream js = conn.jetStream();

            nats.pause();
            CompletableFuture<PublishAck> ack = CompletableFuture.supplyAsync(() -> {
                try {
                    return js.publish("slow", new byte[] {1},
                            PublishOptions.builder().streamTimeout(Duration.ofSeconds(20)).build());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            // A bounded check: the ack stays outstanding for as long as the server is stopped.
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
                .until(() -> !ack.isDone());

            nats.resume();

            assertThat(ack.get(10, TimeUnit.SECONDS).getSeqno()).isEqualTo(1);
        }
    }

    @Test
    void pauseReturnsOnlyOnceEveryServerThreadIsStoppedAndResumeOnceNoneIs() throws Exception {
        try (NatsServer nats = NatsServer.startDefault();
             Connection conn = Nats.connect(new Options.Builder().server(nats.url())
                     .pingInterval(Duration.ofMinutes(1)).build())) {
            Streams.create(conn, StreamSpec.of("FROZEN", "frozen").build());
            JetStream js = conn.jetStream();

            nats.pause();

            assertThat(TaskStates.of(nats.pid())).as("thread states right after pause()")
                    .isNotEmpty().allMatch(s -> s == 'T' || s == 't');
            assertThatThrownBy(() -> conn.flush(Duration.ofMillis(300))).isInstanceOf(TimeoutException.class);
            assertThatThrownBy(() -> js.publish("frozen", new byte[] {1},
                    PublishOptions.builder().streamTimeout(Duration.ofMillis(300)).build()))
                    .isInstanceOf(IOException.class).hasMessageContaining("Timeout");

            nats.resume();

            assertThat(TaskStates.of(nats.pid())).as("thread states right after resume()")
                    .isNotEmpty().noneMatch(s -> s == 'T' || s == 't');
            conn.flush(Duration.ofSeconds(5));
        }
    }

    @Test
    void threadStateIsReadAfterTheLastParenthesisOfTheName() {
        assertThat(TaskStates.stateOf("4242 (nats-server) T 1 4242 4242 0 -1")).isEqualTo('T');
        assertThat(TaskStates.stateOf("4243 (odd) name) (x) S 1 4242 4242 0 -1")).isEqualTo('S');
        assertThatThrownBy(() -> TaskStates.stateOf("garbage")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void missingBinaryFailsWithAClearMessage() {
        Path nowhere = Path.of("/nonexistent/jetsink/nats-server");
        assertThatThrownBy(() -> NatsBinary.locate(Map.of("PATH", "/nonexistent/jetsink"), nowhere))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("nats-server not found")
                .hasMessageContaining("bin/test")
                .hasMessageContaining(NatsBinary.ENV);
    }

    @Test
    void theNewestServerFetchedIntoTheCacheComesBeforePath(@TempDir Path home) throws Exception {
        Path cache = home.resolve(".cache/jetsink/nats-server");
        for (String v : List.of("2.9.10", "2.15.1", "2.10.27")) {
            Path bin = Files.createDirectories(cache.resolve(v)).resolve("nats-server");
            Files.writeString(bin, "#!/bin/sh\necho nats-server: v" + v + "\n");
            Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Files.createDirectories(cache.resolve("not-a-version"));
        Path found = NatsBinary.locate(Map.of("HOME", home.toString(), "PATH", "/usr/sbin"), NatsBinary.DEBIAN_PATH);
        assertThat(found).isEqualTo(cache.resolve("2.15.1/nats-server"));
        assertThat(NatsBinary.version(found)).isEqualTo(new NatsVersion(2, 15, 1));
        Path xdg = NatsBinary.locate(Map.of("HOME", "/nonexistent", "XDG_CACHE_HOME", home.resolve(".cache").toString()),
                Path.of("/nonexistent/nats-server"));
        assertThat(xdg).isEqualTo(found);
    }

    @Test
    void versionsCompareByNumberNotByText() {
        assertThat(NatsVersion.parse("nats-server: v2.10.27")).isEqualTo(new NatsVersion(2, 10, 27));
        assertThat(NatsVersion.parse("2.10.27").compareTo(NatsVersion.parse("2.9.10"))).isPositive();
        assertThat(NatsVersion.parse("2.11.0").atLeast("2.11.0")).isTrue();
        assertThat(NatsVersion.parse("2.10.27").atLeast("2.11.0")).isFalse();
        assertThat(NatsVersion.tryParse("nats-server")).isEmpty();
    }

    @Test
    void theLocatedServerReportsItsVersion() {
        assertThat(NatsBinary.version().major()).isEqualTo(2);
    }

    @Test
    void explicitBinaryThatDoesNotExistIsAnErrorNotAFallback() {
        assertThatThrownBy(() -> NatsBinary.locate(
                Map.of(NatsBinary.ENV, "/nonexistent/nats-server", "PATH", "/usr/sbin"),
                NatsBinary.DEBIAN_PATH))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("NATS_SERVER_BIN=/nonexistent/nats-server");
    }

    @Test
    void configTextAndMaxPayloadReachTheServer() throws Exception {
        try (NatsServer nats = NatsServer.builder().jetStream(false)
                .config("server_name: configured_by_test").maxPayload(4096).build().start();
             Connection conn = Nats.connect(nats.url())) {
            assertThat(conn.getServerInfo().getServerName()).isEqualTo("configured_by_test");
            assertThat(conn.getServerInfo().getMaxPayload()).isEqualTo(4096);
            assertThat(conn.getServerInfo().isJetStreamAvailable()).isFalse();
        }
    }

    @Test
    void stopShutsDownCleanlyAndCloseRemovesTheTemporaryFiles() {
        NatsServer nats = NatsServer.startDefault();
        Path store = nats.storeDir();
        assertThat(nats.logFile()).exists();

        nats.stop();
        assertThat(nats.isAlive()).isFalse();
        assertThat(nats.logTail(50)).contains("Server Exiting");

        nats.close();
        assertThat(store).doesNotExist();
        assertThat(nats.logFile()).doesNotExist();
    }

    @Test
    void restartWaitsOutAPortThatIsBrieflyTaken() throws Exception {
        try (NatsServer nats = NatsServer.startDefault()) {
            int port = nats.port();
            nats.kill();
            ServerSocket squatter = new ServerSocket();
            squatter.setReuseAddress(true);
            squatter.bind(new InetSocketAddress("127.0.0.1", port));
            CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS).execute(() -> {
                try {
                    squatter.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });

            nats.restart();

            assertThat(nats.port()).isEqualTo(port);
            assertThat(nats.logTail(200)).as("the first attempt met the taken port")
                    .contains("address already in use");
        }
    }
}

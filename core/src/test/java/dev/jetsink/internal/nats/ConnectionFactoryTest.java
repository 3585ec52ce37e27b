package dev.jetsink.internal.nats;

import dev.jetsink.internal.nats.ConnectFailedException.Reason;
import dev.jetsink.testkit.SecurityFixtures;
import io.nats.client.ConnectionListener;
import io.nats.client.ErrorListener;
import io.nats.client.Options;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** What {@link ConnectionFactory} hands to jnats, and how it fails, without a NATS server. */
class ConnectionFactoryTest {
    @TempDir
    Path dir;

    @Test
    void optionsReconnectForeverWithTheGivenTuning() throws Exception {
        ConnectionListener connections = (conn, event) -> { };
        ErrorListener errors = new ErrorListener() { };
        Options options = ConnectionFactory.builder(ConnectionSettings.forAddress("127.0.0.1:4222"))
                .connectionName("jetsink notify primary:nats")
                .connectTimeout(Duration.ofSeconds(3))
                .requestCleanupInterval(Duration.ofSeconds(150))
                .connectionListener(connections)
                .errorListener(errors)
                .build().options(Duration.ofSeconds(30));
        assertThat(options.getMaxReconnect()).isEqualTo(-1);
        assertThat(options.getConnectionName()).isEqualTo("jetsink notify primary:nats");
        assertThat(options.getConnectionTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(options.getRequestCleanupInterval()).isEqualTo(Duration.ofSeconds(150));
        assertThat(options.getConnectionListener()).isSameAs(connections);
        assertThat(options.getErrorListener()).isSameAs(errors);
        assertThat(options.getServers()).extracting(Object::toString).containsExactly("nats://127.0.0.1:4222");
        assertThat(options.getSslContext()).isNull();
    }

    @Test
    void jnatsGetsDaemonPoolsWhoseIdleThreadsEnd() throws Exception {
        Options options = ConnectionFactory.builder(ConnectionSettings.forAddress("127.0.0.1:4222"))
                .connectionName("jetsink notify primary:nats").build().options(Duration.ofSeconds(30));

        assertThat(options.getExecutor()).isInstanceOfSatisfying(ThreadPoolExecutor.class, pool -> {
            assertThat(pool.getCorePoolSize()).isZero();
            assertThat(pool.getKeepAliveTime(TimeUnit.MILLISECONDS)).isPositive();
        });
        assertThat(options.getScheduledExecutor()).isInstanceOfSatisfying(ScheduledThreadPoolExecutor.class,
                timers -> assertThat(timers.allowsCoreThreadTimeOut()).isTrue());
        assertThat(threadOf(options.getExecutor())).satisfies(daemonNamed("jetsink-nats-notify-primary:nats-io-"));
        assertThat(threadOf(options.getScheduledExecutor()))
                .satisfies(daemonNamed("jetsink-nats-notify-primary:nats-timer-"));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(((ThreadPoolExecutor) options.getExecutor()).getPoolSize()).as("idle io threads").isZero();
            assertThat(((ThreadPoolExecutor) options.getScheduledExecutor()).getPoolSize()).as("idle timers").isZero();
        });

        for (ExecutorService inOrder : List.of(options.getConnectExecutor(), options.getCallbackExecutor())) {
            assertThat(inOrder).isInstanceOfSatisfying(ThreadPoolExecutor.class, pool -> {
                assertThat(pool.getMaximumPoolSize()).as("one thread: events stay in order").isOne();
                assertThat(pool.allowsCoreThreadTimeOut()).isTrue();
            });
        }
        assertThat(threadOf(options.getConnectExecutor()))
                .satisfies(daemonNamed("jetsink-nats-notify-primary:nats-connect-"));
        assertThat(threadOf(options.getCallbackExecutor()))
                .satisfies(daemonNamed("jetsink-nats-notify-primary:nats-callback-"));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                ((ThreadPoolExecutor) options.getCallbackExecutor()).getPoolSize()).as("idle callback thread").isZero());
    }

    @Test
    void anEmbeddersOwnExecutorWinsOverTheDaemonPool() throws Exception {
        ExecutorService own = Executors.newCachedThreadPool();
        try {
            Options options = ConnectionFactory.builder(ConnectionSettings.forAddress("127.0.0.1:4222"))
                    .options(b -> b.executor(own)).build().options(Duration.ofSeconds(30));
            assertThat(options.getExecutor()).isSameAs(own);
        } finally {
            own.shutdownNow();
        }
    }

    @Test
    void threadNamesCarryTheConnectionNameWithoutTheProduct() {
        assertThat(NatsThreads.threadLabel("jetsink notify primary:nats")).isEqualTo("notify-primary:nats");
        assertThat(NatsThreads.threadLabel("jetsink-stream-plan")).isEqualTo("stream-plan");
        assertThat(NatsThreads.threadLabel(ConnectionFactory.DEFAULT_CONNECTION_NAME)).isEqualTo("connection");
    }

    private static Thread threadOf(ExecutorService pool) throws Exception {
        return pool.submit(Thread::currentThread).get(10, TimeUnit.SECONDS);
    }

    private static java.util.function.Consumer<Thread> daemonNamed(String prefix) {
        return t -> {
            assertThat(t.isDaemon()).as("%s is a daemon", t.getName()).isTrue();
            assertThat(t.getName()).startsWith(prefix);
        };
    }

    @Test
    void deadlineShorterThanConnectTimeoutCapsEachAttempt() throws Exception {
        Options options = ConnectionFactory.builder(ConnectionSettings.forAddress("127.0.0.1:4222")).build()
                .options(Duration.ofMillis(500));
        assertThat(options.getConnectionTimeout()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void tlsSettingsGiveAHostnameVerifyingContext() throws Exception {
        SecurityFixtures fixtures = SecurityFixtures.materialize(dir);
        Options options = ConnectionFactory.builder(ConnectionSettings.builder("127.0.0.1:4222")
                .tlsCa(fixtures.caFile()).build()).build().options(Duration.ofSeconds(5));
        assertThat(options.getSslContext()).isInstanceOf(HostnameVerifyingSslContext.class);
    }

    /** Two silent seeds: jnats alone would spend one capped attempt on each, twice the deadline. */
    @Test
    void silentServersAreATimeoutWithinTheDeadline() throws Exception {
        List<Socket> held = new ArrayList<>();
        try (ServerSocket first = silentListener(held); ServerSocket second = silentListener(held)) {
            ConnectionFactory factory = ConnectionFactory.builder(ConnectionSettings.forAddress(
                    "nats://127.0.0.1:" + first.getLocalPort() + ",nats://127.0.0.1:" + second.getLocalPort()))
                    .connectTimeout(Duration.ofSeconds(30)).build();
            long start = System.nanoTime();
            assertThatThrownBy(() -> factory.connect(Duration.ofMillis(400)))
                    .isInstanceOfSatisfying(ConnectFailedException.class,
                            e -> assertThat(e.reason()).as(e.getMessage()).isEqualTo(Reason.TIMEOUT));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        } finally {
            // the listeners are closed by now; an acceptor that took a connection meanwhile waits for
            // this lock, then sees its listener closed and closes the connection itself
            synchronized (held) {
                for (Socket s : held) {
                    s.close();
                }
            }
        }
    }

    /** Accepts connections and never says a word, like a hung server. */
    private static ServerSocket silentListener(List<Socket> held) throws Exception {
        ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    Socket s = silent.accept();
                    synchronized (held) {
                        if (silent.isClosed()) {
                            s.close();
                        } else {
                            held.add(s);
                        }
                    }
                }
            } catch (Exception e) {
                // the listener was closed at the end of the test
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
        return silent;
    }

    @Test
    void closedPortIsUnreachable() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        ConnectionFactory factory = ConnectionFactory.builder(ConnectionSettings.forAddress("127.0.0.1:" + port)).build();
        assertThatThrownBy(() -> factory.connect(Duration.ofSeconds(5)))
                .isInstanceOfSatisfying(ConnectFailedException.class,
                        e -> assertThat(e.reason()).as(e.getMessage()).isEqualTo(Reason.UNREACHABLE))
                .hasMessageContaining("127.0.0.1:" + port);
    }

    @Test
    void passwordInAServerUrlNeverReachesTheMessage() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        // The config package refuses user info in addresses; the record alone must still not leak it.
        ConnectionSettings settings = new ConnectionSettings(List.of("nats://bob:url-s3cret@127.0.0.1:" + port),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), false, JetStreamApi.DEFAULT);
        ConnectionFactory factory = ConnectionFactory.builder(settings).build();
        assertThatThrownBy(() -> factory.connect(Duration.ofSeconds(5)))
                .isInstanceOf(ConnectFailedException.class)
                .hasMessageNotContaining("url-s3cret")
                .satisfies(e -> assertThat(e.getCause() == null || !String.valueOf(e.getCause().getMessage())
                        .contains("url-s3cret")).isTrue());
    }
}

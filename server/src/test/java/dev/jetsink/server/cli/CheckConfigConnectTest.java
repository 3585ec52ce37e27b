package dev.jetsink.server.cli;

import dev.jetsink.internal.nats.DuplicateWindow;
import dev.jetsink.server.ExitCode;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.SecurityFixtures;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code check-config --connect} against a real nats-server with user/password auth and JetStream. */
class CheckConfigConnectTest {
    private static final String PASSWORD = "s3cret-Conn3ct-pw";
    private static final String WRONG = "wr0ng-Conn3ct-pw";
    private static NatsServer server;

    @TempDir
    Path dir;

    private final StringWriter output = new StringWriter();

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    @BeforeAll
    static void startServerWithStream() throws Exception {
        server = NatsServer.builder().config(SecurityFixtures.userPassword("sink", PASSWORD)).build().start();
        try (Connection c = Nats.connect(new Options.Builder().server(server.url()).userInfo("sink", PASSWORD).build())) {
            c.jetStreamManagement().addStream(StreamConfiguration.builder().name("RUSTFS_EVENTS").subjects("rustfs.events")
                .storageType(StorageType.File).replicas(1).duplicateWindow(DuplicateWindow.required(30)).build());
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private Map<String, String> target(String address, String password, String stream) {
        Map<String, String> env = new HashMap<>();
        env.put("RUSTFS_NOTIFY_NATS_ENABLE_PRIMARY", "on");
        env.put("RUSTFS_NOTIFY_NATS_ADDRESS_PRIMARY", address);
        env.put("RUSTFS_NOTIFY_NATS_SUBJECT_PRIMARY", "rustfs.events");
        env.put("RUSTFS_NOTIFY_NATS_USERNAME_PRIMARY", "sink");
        env.put("RUSTFS_NOTIFY_NATS_PASSWORD_PRIMARY", password);
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_ENABLE_PRIMARY", "on");
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_STREAM_NAME_PRIMARY", stream);
        env.put("RUSTFS_NOTIFY_NATS_QUEUE_DIR_PRIMARY", dir.toString());
        return env;
    }

    private int run(Map<String, String> env, String... args) {
        CommandLine cli = new CommandLine(new CheckConfigCommand(env));
        cli.setOut(new PrintWriter(output, true));
        cli.setErr(new PrintWriter(output, true));
        return cli.execute(args);
    }

    @Test
    void aGoodTargetIsOkWithTheServerVersionAndItsStream() {
        assertThat(run(target(server.url(), PASSWORD, "RUSTFS_EVENTS"), "--connect")).as(output.toString()).isEqualTo(ExitCode.OK);
        assertThat(output.toString()).containsPattern("notify primary:nats  OK  nats-server \\d+\\.\\d+\\.\\d+, stream RUSTFS_EVENTS valid")
            .doesNotContain(PASSWORD);
    }

    @Test
    void withoutConnectNothingIsDialed() {
        assertThat(run(target(server.url(), WRONG, "RUSTFS_EVENTS"))).isEqualTo(ExitCode.OK);
        assertThat(output.toString()).doesNotContain("FAILED").doesNotContain(WRONG);
    }

    @Test
    void aWrongPasswordFailsNamingAuthenticationAndNeverPrintsThePassword() {
        assertThat(run(target(server.url(), WRONG, "RUSTFS_EVENTS"), "--connect")).isEqualTo(ExitCode.FAILURE);
        assertThat(output.toString()).contains("notify primary:nats  FAILED  ").contains("the server refused the credentials")
            .contains("configuration is valid").doesNotContain(WRONG).doesNotContain(PASSWORD);
    }

    @Test
    void aMissingStreamFailsNamingTheStream() {
        assertThat(run(target(server.url(), PASSWORD, "NO_SUCH_STREAM"), "--connect")).isEqualTo(ExitCode.FAILURE);
        assertThat(output.toString()).contains("notify primary:nats  FAILED  ").contains("NO_SUCH_STREAM")
            .containsIgnoringCase("not found");
    }

    @Test
    void anUnreachableAddressFailsQuickly() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        long start = System.nanoTime();
        assertThat(run(target("127.0.0.1:" + closed, PASSWORD, "RUSTFS_EVENTS"), "--connect", "--connect-timeout", "5"))
            .isEqualTo(ExitCode.FAILURE);
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms").isLessThan(5_000);
        assertThat(output.toString()).contains("notify primary:nats  FAILED  ").contains("no server reachable")
            .doesNotContain(PASSWORD);
    }
}

package dev.jetsink.server.cli;

import dev.jetsink.internal.nats.StreamFacts;
import dev.jetsink.internal.nats.StreamValidator;
import dev.jetsink.internal.nats.ValidationResult;
import dev.jetsink.server.ExitCode;
import dev.jetsink.server.testing.CliRun;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.JetStreamManagement;
import io.nats.client.Nats;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code stream-plan --apply} and the printed config against a real nats-server. */
@Tag("broker")
class StreamPlanApplyTest {
    private static NatsServer nats;
    private static Connection conn;

    @BeforeAll
    static void startServer() throws Exception {
        nats = NatsServer.startDefault();
        conn = Nats.connect(nats.url());
    }

    @AfterAll
    static void stopServer() throws InterruptedException {
        if (conn != null) {
            conn.close();
        }
        if (nats != null) {
            nats.close();
        }
    }

    private static StreamInfo info(String stream) throws Exception {
        return conn.jetStreamManagement().getStreamInfo(stream);
    }

    @Test
    void applyCreatesAStreamThatPassesStreamValidation() throws Exception {
        CliRun run = CliRun.of("stream-plan", "--apply", "--server", nats.url(), "--stream", "APPLIED",
            "--subject", "store.notify", "--replicas", "1", "--ack-timeout", "45");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out).contains("created stream APPLIED").contains("passes jetsink's stream validation");
        assertThat(run.out).as("one replica draws the replica advice").contains("advice: stream APPLIED has 1 replica(s)");
        StreamInfo info = info("APPLIED");
        assertThat(info.getConfiguration().getDuplicateWindow()).isEqualTo(Duration.ofSeconds(5 * 45 + 124));
        assertThat(info.getConfiguration().getStorageType()).isEqualTo(StorageType.File);
        assertThat(new StreamValidator("APPLIED", "store.notify", 45).validate(StreamFacts.from(info)))
            .isInstanceOf(ValidationResult.Passed.class);
    }

    @Test
    void printedJsonCreatedOnTheServerPassesStreamValidation() throws Exception {
        CliRun run = CliRun.of("stream-plan", "--json", "--stream", "FROMJSON", "--subject", "store.audit",
            "--replicas", "1");
        JetStreamManagement jsm = conn.jetStreamManagement();
        StreamInfo created = jsm.addStream(StreamConfiguration.instance(run.out));

        ValidationResult result = new StreamValidator("FROMJSON", "store.audit", 30).validate(StreamFacts.from(created));

        assertThat(result).isInstanceOf(ValidationResult.Passed.class);
        assertThat(created.getConfiguration().getDuplicateWindow()).isEqualTo(Duration.ofSeconds(274));
    }

    @Test
    void applyLeavesAnExistingPassingStreamUnchanged() throws Exception {
        String[] args = {"stream-plan", "--apply", "--server", nats.url(), "--stream", "TWICE", "--subject", "twice",
            "--replicas", "1"};
        assertThat(CliRun.of(args).exitCode).isZero();
        long created = info("TWICE").getCreateTime().toInstant().toEpochMilli();

        CliRun again = CliRun.of(args);

        assertThat(again.exitCode).as(again.toString()).isZero();
        assertThat(again.out).contains("already exists").contains("left unchanged").contains("passes");
        assertThat(info("TWICE").getCreateTime().toInstant().toEpochMilli()).isEqualTo(created);
    }

    @Test
    void applyReportsAnExistingStreamWhoseWindowIsTooSmallAndChangesNothing() throws Exception {
        Streams.create(conn, StreamSpec.of("SMALL", "small").duplicateWindow(Duration.ofSeconds(273)).build());

        CliRun run = CliRun.of("stream-plan", "--apply", "--server", nats.url(), "--stream", "SMALL",
            "--subject", "small", "--replicas", "1");

        assertThat(run.exitCode).as(run.toString()).isEqualTo(ExitCode.FAILURE);
        assertThat(run.err).contains("duplicate window 273s is below the required 274s");
        assertThat(info("SMALL").getConfiguration().getDuplicateWindow()).isEqualTo(Duration.ofSeconds(273));
    }

    @Test
    void applyReportsAnExistingStreamThatDoesNotCaptureTheSubject() throws Exception {
        Streams.create(conn, StreamSpec.of("OTHER", "other.>").duplicateWindow(Duration.ofSeconds(300)).build());

        CliRun run = CliRun.of("stream-plan", "--apply", "--server", nats.url(), "--stream", "OTHER",
            "--subject", "mine", "--replicas", "1");

        assertThat(run.exitCode).isEqualTo(ExitCode.FAILURE);
        assertThat(run.err).contains("does not capture subject mine");
    }

    @Test
    void threeReplicasOnASingleServerFailsWithTheServersReason() throws Exception {
        CliRun run = CliRun.of("stream-plan", "--apply", "--server", nats.url(), "--stream", "R3ONSINGLE",
            "--subject", "r3");

        assertThat(run.exitCode).as(run.toString()).isEqualTo(ExitCode.FAILURE);
        assertThat(run.err).contains("stream R3ONSINGLE on").contains("server error code");
        assertThat(conn.jetStreamManagement().getStreamNames()).doesNotContain("R3ONSINGLE");
    }

    @Test
    void applyToAServerThatIsNotThereIsARuntimeFailure() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again before the command runs: nothing listens there
        }
        CliRun run = CliRun.of("stream-plan", "--apply", "--server", "127.0.0.1:" + port, "--stream", "NOWHERE");

        assertThat(run.exitCode).isEqualTo(ExitCode.FAILURE);
        assertThat(run.err).contains("cannot connect to nats://127.0.0.1:" + port);
    }

    @Test
    void applyCreatesTheStreamWithItsLimits() throws Exception {
        CliRun run = CliRun.of("stream-plan", "--apply", "--server", nats.url(), "--stream", "LIMITED",
            "--subject", "store.limited", "--replicas", "1", "--max-age", "7d", "--max-bytes", "64MiB");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out).contains("max age 7d, max bytes 67108864");
        assertThat(info("LIMITED").getConfiguration().getMaxAge()).isEqualTo(java.time.Duration.ofDays(7));
        assertThat(info("LIMITED").getConfiguration().getMaxBytes()).isEqualTo(64L << 20);
    }
}

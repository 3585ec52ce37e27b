package dev.jetsink.server.cli;

import dev.jetsink.server.testing.CliRun;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.TestCa;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code jetsink status} and {@code jetsink failed replay} against a real daemon that serves TLS,
 * and one that also requires client certificates, bound to every address (0.0.0.0): the commands
 * find it through the operator's config file, dial it on 127.0.0.1 over https, and take the PEM
 * files of {@code --cacert}, {@code --cert} and {@code --key}.
 */
class CliOverTlsTest {
    private static final String TOKEN = "cli-tls-admin-token";

    @TempDir
    Path dir;

    @Test
    void statusReadsATlsDaemonBoundToEveryAddressOnLoopbackWithTheCaOfCacert() throws Exception {
        TestCa ca = TestCa.create(dir, "server");
        try (DaemonHarness h = daemon(ca.issueServer("server", 31), Optional.empty())) {
            Path config = config(h);
            CliRun trusted = CliRun.of("status", "--config", config.toString(), "--cacert", ca.cert.toString());
            assertThat(trusted.exitCode).as(trusted.toString()).isZero();
            assertThat(trusted.out).contains("notify _:nats", "audit _:nats");

            CliRun untrusted = CliRun.of("status", "--config", config.toString());
            assertThat(untrusted.exitCode).as(untrusted.toString()).isEqualTo(1);
            assertThat(untrusted.err).contains("cannot read https://127.0.0.1:" + port(h) + "/status", "SSLHandshakeException");
        }
    }

    @Test
    void statusReachesADaemonThatRequiresClientCertificatesWithCertAndKey() throws Exception {
        TestCa ca = TestCa.create(dir, "server");
        TestCa clients = TestCa.create(dir, "clients");
        Path[] client = clients.issueClient("operator", 41);
        try (DaemonHarness h = daemon(ca.issueServer("server", 32), Optional.of(clients.cert))) {
            Path config = config(h);
            CliRun withoutCertificate = CliRun.of("status", "--config", config.toString(), "--cacert", ca.cert.toString());
            assertThat(withoutCertificate.exitCode).as(withoutCertificate.toString()).isEqualTo(1);

            CliRun withCertificate = CliRun.of("status", "--config", config.toString(), "--cacert", ca.cert.toString(),
                "--cert", client[0].toString(), "--key", client[1].toString());
            assertThat(withCertificate.exitCode).as(withCertificate.toString()).isZero();
            assertThat(withCertificate.out).contains("notify _:nats");
        }
    }

    @Test
    void failedReplayAsksAnMtlsDaemonThatHoldsTheQueue() throws Exception {
        TestCa ca = TestCa.create(dir, "server");
        TestCa clients = TestCa.create(dir, "clients");
        Path[] client = clients.issueClient("operator", 42);
        try (DaemonHarness h = daemon(ca.issueServer("server", 33), Optional.of(clients.cert))) {
            CliRun dry = CliRun.of("failed", "replay", "--kind", "notify", "--target", "_", "--dry-run",
                "--config", config(h).toString(), "--cacert", ca.cert.toString(),
                "--cert", client[0].toString(), "--key", client[1].toString());
            assertThat(dry.exitCode).as(dry.toString()).isZero();
            assertThat(dry.out).contains("running daemon at https://127.0.0.1:" + port(h));
        }
    }

    @Test
    void aCertificateWithoutItsKeyIsAUsageError() {
        CliRun run = CliRun.of("status", "--url", "https://127.0.0.1:1", "--cert", dir.resolve("c.pem").toString());
        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("--cert and --key must be given together");
    }

    private static DaemonHarness daemon(Path[] server, Optional<Path> clientCa) throws Exception {
        DaemonHarness h = new DaemonHarness().withDefaultStream().with(Map.of(
            "JETSINK_HTTP_ADDRESS", "0.0.0.0:0",
            "JETSINK_ADMIN_TOKEN", TOKEN,
            "JETSINK_HTTP_TLS_CERT", server[0].toAbsolutePath().toString(),
            "JETSINK_HTTP_TLS_KEY", server[1].toAbsolutePath().toString()));
        clientCa.ifPresent(ca -> h.with(Map.of("JETSINK_HTTP_TLS_CLIENT_CA", ca.toAbsolutePath().toString())));
        return h.start();
    }

    private static int port(DaemonHarness h) {
        return h.daemon.address().getPort();
    }

    /* The operator's env file: the daemon's settings, with the port it bound on every address. */
    private Path config(DaemonHarness h) throws Exception {
        List<String> lines = new ArrayList<>();
        h.env.forEach((k, v) -> lines.add(k + "=" + v));
        lines.add("JETSINK_HTTP_ADDRESS=0.0.0.0:" + port(h));
        return Files.write(dir.resolve("jetsink.env"), lines);
    }
}

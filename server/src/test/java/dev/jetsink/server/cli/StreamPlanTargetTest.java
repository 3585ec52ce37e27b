package dev.jetsink.server.cli;

import dev.jetsink.internal.nats.ConnectionFactory;
import dev.jetsink.internal.nats.ConnectionSettings;
import dev.jetsink.server.ExitCode;
import dev.jetsink.server.testing.CliRun;
import dev.jetsink.testkit.LeafNodePair;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.SecurityFixtures;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.api.StreamConfiguration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code stream-plan --apply --target ID} against real servers: the connection (auth, TLS,
 * JetStream domain) and the stream, subject and ack timeout come from the target's configuration.
 *
 * <p>Tagged {@code broker}: the compatibility pass runs it on the oldest and previous servers too.
 */
@SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
@Tag("broker")
class StreamPlanTargetTest {
    private static final String PASSWORD = "pa55-Of-The-Plan";

    @TempDir
    Path dir;
    private SecurityFixtures fixtures;

    @BeforeEach
    void materialize() throws Exception {
        fixtures = SecurityFixtures.materialize(dir.resolve("fixtures"));
    }

    /** A config file for the JetStream notify target {@code primary} with {@code keys} added. */
    private Path configFile(String address, Map<String, String> keys) throws Exception {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("RUSTFS_NOTIFY_NATS_ENABLE_PRIMARY", "on");
        env.put("RUSTFS_NOTIFY_NATS_ADDRESS_PRIMARY", address);
        env.put("RUSTFS_NOTIFY_NATS_SUBJECT_PRIMARY", "store.events");
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_ENABLE_PRIMARY", "on");
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_STREAM_NAME_PRIMARY", "PLANNED");
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_ACK_TIMEOUT_SECS_PRIMARY", "45");
        env.put("RUSTFS_NOTIFY_NATS_QUEUE_DIR_PRIMARY", dir.resolve("queue").toString());
        keys.forEach((k, v) -> env.put("RUSTFS_NOTIFY_NATS_" + k + "_PRIMARY", v));
        return Files.writeString(dir.resolve("jetsink.env"),
            env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue() + "\n").collect(Collectors.joining()));
    }

    private static void assertPlannedStreamOn(Connection c) throws Exception {
        StreamConfiguration created = c.jetStreamManagement().getStreamInfo("PLANNED").getConfiguration();
        assertThat(created.getSubjects()).containsExactly("store.events");
        assertThat(created.getDuplicateWindow()).as("the target's ack timeout, 45 s").isEqualTo(Duration.ofSeconds(5 * 45 + 124));
    }

    @Test
    void applyWithATargetUsesItsNkeySeedAndItsStream() throws Exception {
        try (NatsServer server = NatsServer.builder().config(fixtures.nkey()).build().start()) {
            Path config = configFile(server.url(), Map.of("NKEY_SEED_FILE", fixtures.nkeySeedFile().toString()));

            CliRun run = CliRun.of("stream-plan", "--apply", "--target", "primary", "--config", config.toString(),
                "--replicas", "1");

            assertThat(run.exitCode).as(run.toString()).isZero();
            assertThat(run.out).contains("using the connection of target notify primary:nats")
                .contains("created stream PLANNED").contains("passes jetsink's stream validation");
            assertThat(run.toString()).doesNotContain(fixtures.nkeySeed());
            try (Connection admin = connect(ConnectionSettings.builder(server.url())
                    .nkeySeedFile(fixtures.nkeySeedFile()).build())) {
                assertPlannedStreamOn(admin);
            }
        }
    }

    @Test
    void applyWithATargetUsesItsCredsFileOnAnOperatorModeServer() throws Exception {
        try (NatsServer server = NatsServer.builder().config(fixtures.operatorCreds()).build().start()) {
            Path config = configFile(server.url(), Map.of("CREDENTIALS_FILE", fixtures.credsFile().toString()));

            CliRun run = CliRun.of("stream-plan", "--apply", "--target", "primary", "--config", config.toString(),
                "--replicas", "1", "--max-age", "7d");

            assertThat(run.exitCode).as(run.toString()).isZero();
            assertThat(run.out).contains("using the connection of target notify primary:nats")
                .contains("created stream PLANNED").contains("passes jetsink's stream validation");
            String seed = Files.readAllLines(fixtures.credsFile()).stream().map(String::strip)
                .filter(l -> l.startsWith("SU")).findFirst().orElseThrow();
            assertThat(run.toString()).doesNotContain(seed);
            try (Connection admin = connect(ConnectionSettings.builder(server.url())
                    .credentialsFile(fixtures.credsFile()).build())) {
                assertPlannedStreamOn(admin);
            }

            // the same plan with another account's creds is refused by that server: the file was used
            Path stranger = configFile(server.url(), Map.of("CREDENTIALS_FILE", fixtures.strangerCredsFile().toString()));
            CliRun refused = CliRun.of("stream-plan", "--apply", "--target", "primary", "--config", stranger.toString(),
                "--replicas", "1", "--max-age", "7d");
            assertThat(refused.exitCode).as(refused.toString()).isEqualTo(ExitCode.FAILURE);
        }
    }

    @Test
    void theOldServerFlagWithoutTheTargetsSeedIsRefusedByThatServer() throws Exception {
        try (NatsServer server = NatsServer.builder().config(fixtures.nkey()).build().start()) {
            CliRun run = CliRun.of("stream-plan", "--apply", "--server", server.url(), "--stream", "PLANNED",
                "--replicas", "1");

            assertThat(run.exitCode).as(run.toString()).isEqualTo(ExitCode.FAILURE);
            assertThat(run.err).contains("the server refused the credentials");
        }
    }

    @Test
    void applyWithATargetUsesItsTlsClientCertificateAndPassword() throws Exception {
        String serverConfig = fixtures.tlsVerifyClient() + SecurityFixtures.userPassword("planner", PASSWORD);
        try (NatsServer server = NatsServer.builder().config(serverConfig).build().start()) {
            Map<String, String> keys = new LinkedHashMap<>();
            keys.put("TLS_CA", fixtures.caFile().toString());
            keys.put("TLS_CLIENT_CERT", fixtures.clientCert().toString());
            keys.put("TLS_CLIENT_KEY", fixtures.clientKey().toString());
            keys.put("USERNAME", "planner");
            keys.put("PASSWORD", PASSWORD);
            Path config = configFile("127.0.0.1:" + server.port(), keys);

            CliRun run = CliRun.of("stream-plan", "--apply", "--target", "primary", "--kind", "notify",
                "--config", config.toString(), "--replicas", "1");

            assertThat(run.exitCode).as(run.toString()).isZero();
            assertThat(run.toString()).doesNotContain(PASSWORD);
            try (Connection admin = connect(ConnectionSettings.builder("127.0.0.1:" + server.port())
                    .tlsCa(fixtures.caFile()).tlsClient(fixtures.clientCert(), fixtures.clientKey())
                    .userPassword("planner", PASSWORD).build())) {
                assertPlannedStreamOn(admin);
            }
        }
    }

    @Test
    void applyWithATargetUsesItsToken() throws Exception {
        String token = "t0ken-Of-The-Plan";
        try (NatsServer server = NatsServer.builder().config(SecurityFixtures.token(token)).build().start()) {
            Path config = configFile(server.url(), Map.of("TOKEN", token));

            CliRun run = CliRun.of("stream-plan", "--apply", "--target", "primary", "--config", config.toString(),
                "--replicas", "1");

            assertThat(run.exitCode).as(run.toString()).isZero();
            assertThat(run.toString()).doesNotContain(token);
            try (Connection admin = connect(ConnectionSettings.builder(server.url()).token(token).build())) {
                assertPlannedStreamOn(admin);
            }
        }
    }

    @Test
    void applyWithATargetInAnotherDomainCreatesTheStreamOnTheHubThroughTheLeaf() throws Exception {
        try (LeafNodePair pair = LeafNodePair.start("hub", "")) {
            Path config = configFile(pair.leaf().url(), Map.of("JETSTREAM_DOMAIN", "hub"));

            CliRun run = CliRun.of("stream-plan", "--apply", "--target", "primary", "--config", config.toString(),
                "--replicas", "1");

            assertThat(run.exitCode).as(run.toString()).isZero();
            assertThat(run.out).contains("(JetStream domain hub)").contains("created stream PLANNED");
            try (Connection hub = Nats.connect(pair.hub().url())) {
                assertPlannedStreamOn(hub);
            }
        }
    }

    @Test
    void targetCannotBeCombinedWithTheOldConnectionFlags() throws Exception {
        Path config = configFile("127.0.0.1:4222", Map.of());

        CliRun run = CliRun.of("stream-plan", "--apply", "--target", "primary", "--config", config.toString(),
            "--server", "127.0.0.1:4222");

        assertThat(run.exitCode).isEqualTo(ExitCode.USAGE);
        assertThat(run.err).contains("--server, --creds and --tls-ca cannot be combined with it");
    }

    @Test
    void anUnknownTargetIsAUsageErrorNamingTheConfiguredOnes() throws Exception {
        Path config = configFile("127.0.0.1:4222", Map.of());

        CliRun run = CliRun.of("stream-plan", "--apply", "--target", "secondary", "--config", config.toString());

        assertThat(run.exitCode).isEqualTo(ExitCode.USAGE);
        assertThat(run.err).contains("no enabled target secondary").contains("notify primary:nats");
    }

    @Test
    void aKindOtherThanNotifyOrAuditIsAUsageError() throws Exception {
        Path config = configFile("127.0.0.1:4222", Map.of());

        CliRun run = CliRun.of("stream-plan", "--target", "primary", "--kind", "webhook", "--config", config.toString());

        assertThat(run.exitCode).isEqualTo(ExitCode.USAGE);
        assertThat(run.err).contains("--kind must be notify or audit, not webhook");
    }

    private static Connection connect(ConnectionSettings settings) throws Exception {
        return ConnectionFactory.builder(settings).connectionName("stream-plan-target-test").build()
            .connect(Duration.ofSeconds(10));
    }
}

package dev.jetsink.internal.targets;

import ch.qos.logback.classic.Level;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.nats.ConnectionFactory;
import dev.jetsink.internal.nats.ConnectionSettings;
import dev.jetsink.lifecycle.LifecycleEvent.AttemptFailed;
import dev.jetsink.lifecycle.LifecycleEvent.ConnectionChanged;
import dev.jetsink.lifecycle.LifecycleEvent.ConnectionEvent;
import dev.jetsink.lifecycle.LifecycleEvent.EntryResolved;
import dev.jetsink.lifecycle.LifecycleEvent.VerdictChanged;
import dev.jetsink.lifecycle.Outcome;
import dev.jetsink.lifecycle.ResetReason;
import dev.jetsink.lifecycle.StreamVerdict;
import dev.jetsink.testkit.FaultProxy;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.SecurityFixtures.ServerCert;
import dev.jetsink.testkit.SecurityFixtures;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * TLS and authentication on the delivery path (DESIGN.md "NATS connection"): a target with
 * the right material connects and delivers; wrong material keeps every event queued, never fails
 * one; rotated TLS files reset the verdict and bring a new connection.
 */
@SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
class SecureConnectionTest {

    private static final String PASSWORD = "pa55-Of-The-Target";
    private static final String TOKEN = "t0ken-Of-The-Target";
    private static final int EVENTS = 20;

    @TempDir
    Path dir;
    private SecurityFixtures fixtures;

    @BeforeEach
    void materialize() throws Exception {
        fixtures = SecurityFixtures.materialize(dir);
    }

    /**
     * The four auth methods (user and password, token, credentials file, nkey seed file), each with
     * its server config, target keys and admin settings.
     */
    enum Auth {
        USER_PASSWORD, TOKEN, CREDS, NKEY;

        String serverConfig(SecurityFixtures f) {
            return switch (this) {
                case USER_PASSWORD -> SecurityFixtures.userPassword("jetsink", PASSWORD);
                case TOKEN -> SecurityFixtures.token(SecureConnectionTest.TOKEN);
                case CREDS -> f.operatorCreds();
                case NKEY -> f.nkey();
            };
        }

        void putTargetKeys(Map<String, String> env, String prefix, SecurityFixtures f, boolean right) {
            switch (this) {
                case USER_PASSWORD -> {
                    env.put(prefix + "USERNAME", "jetsink");
                    env.put(prefix + "PASSWORD", right ? PASSWORD : "not-" + PASSWORD);
                }
                case TOKEN -> env.put(prefix + "TOKEN", right ? SecureConnectionTest.TOKEN : "not-" + SecureConnectionTest.TOKEN);
                case CREDS -> env.put(prefix + "CREDENTIALS_FILE",
                    (right ? f.credsFile() : f.strangerCredsFile()).toString());
                case NKEY -> env.put(prefix + "NKEY_SEED_FILE",
                    (right ? f.nkeySeedFile() : f.strangerNkeySeedFile()).toString());
            }
        }

        /** What the target must never show: the secret of either the right or the wrong keys. */
        List<String> secrets(SecurityFixtures f) throws Exception {
            return switch (this) {
                case USER_PASSWORD, TOKEN -> List.of(PASSWORD, SecureConnectionTest.TOKEN);
                case CREDS -> List.of(seedIn(f.credsFile()), seedIn(f.strangerCredsFile()));
                case NKEY -> List.of(Files.readString(f.nkeySeedFile()).strip(),
                    Files.readString(f.strangerNkeySeedFile()).strip());
            };
        }

        ConnectionSettings admin(String address, SecurityFixtures f) {
            ConnectionSettings.Builder b = ConnectionSettings.builder(address);
            return switch (this) {
                case USER_PASSWORD -> b.userPassword("jetsink", PASSWORD).build();
                case TOKEN -> b.token(SecureConnectionTest.TOKEN).build();
                case CREDS -> b.credentialsFile(f.credsFile()).build();
                case NKEY -> b.nkeySeedFile(f.nkeySeedFile()).build();
            };
        }
    }

    static Stream<Arguments> authByKind() {
        return Arrays.stream(Auth.values())
            .flatMap(a -> Arrays.stream(TargetKind.values()).map(k -> Arguments.of(a, k)));
    }

    @ParameterizedTest
    @MethodSource("authByKind")
    void eachAuthMethodConnectsAndDelivers(Auth auth, TargetKind kind) throws Exception {
        NatsServer server = NatsServer.builder().config(auth.serverConfig(fixtures)).build().start();
        try (TargetHarness h = new TargetHarness(server);
             Connection admin = connect(auth.admin(hostPort(server), fixtures))) {
            Streams.create(admin, defaultStream());
            Map<String, String> env = h.jetStreamEnv(kind);
            auth.putTargetKeys(env, kind.envPrefix(), fixtures, true);
            NatsTarget t = h.start(TargetHarness.config(env));

            TargetHarness.sendAll(t, kind, 0, EVENTS);
            h.awaitResolved(EVENTS);

            assertThat(t.verdictPass()).isTrue();
            assertStreamHoldsEachResolvedEntryOnce(admin, h);
        }
    }

    @ParameterizedTest
    @MethodSource("authByKind")
    void badCredentialsKeepEventsQueued(Auth auth, TargetKind kind) throws Exception {
        NatsServer server = NatsServer.builder().config(auth.serverConfig(fixtures)).build().start();
        try (TargetHarness h = new TargetHarness(server); CapturedLog log = new CapturedLog()) {
            Map<String, String> env = h.jetStreamEnv(kind);
            auth.putTargetKeys(env, kind.envPrefix(), fixtures, false);
            NatsTarget t = h.start(TargetHarness.config(env));

            TargetHarness.sendAll(t, kind, 0, EVENTS);
            AttemptFailed failed = h.events.await(AttemptFailed.class, e -> true, TargetHarness.AWAIT);
            h.sleeper.awaitPending(Duration.ofSeconds(4), TargetHarness.AWAIT);

            assertThat(failed.outcome().family()).isEqualTo(Outcome.Family.TRANSIENT);
            assertThat(failed.outcome().cause()).isEqualTo(Outcome.Cause.AUTHENTICATION_FAILED);
            TargetHealth health = t.health();
            assertThat(health.status()).isEqualTo(TargetHealth.Status.OFFLINE);
            assertThat(health.reason()).contains("the server refused the credentials");
            assertThat(log.lines(Level.ERROR, "NATS connection failed at init")).as("the operator's log line")
                .singleElement().asString().contains("reason=AUTHENTICATION").contains("the server refused the credentials");
            List<String> shown = new java.util.ArrayList<>(log.at(Level.WARN));
            shown.addAll(log.at(Level.ERROR));
            shown.addAll(List.of(failed.outcome().detail(), health.reason(), t.connectFailure().orElse("")));
            for (String secret : auth.secrets(fixtures)) {
                assertThat(shown).noneMatch(line -> line.contains(secret));
            }
            assertThat(t.queueLength()).as("nothing lost").isEqualTo(EVENTS);
            assertThat(h.events.all(ConnectionChanged.class)).noneMatch(e -> e.event() == ConnectionEvent.CONNECTED);
            ConnectionBehaviourTest.assertNothingFailed(h, t);
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void tlsWithCaAndClientCertConnectsAndDelivers(TargetKind kind) throws Exception {
        NatsServer server = NatsServer.builder().config(fixtures.tlsVerifyClient()).build().start();
        ConnectionSettings adminSettings = ConnectionSettings.builder(hostPort(server))
            .tlsCa(fixtures.caFile()).tlsClient(fixtures.clientCert(), fixtures.clientKey()).build();
        try (TargetHarness h = new TargetHarness(server); Connection admin = connect(adminSettings)) {
            Streams.create(admin, defaultStream());
            Map<String, String> env = h.jetStreamEnv(kind);
            String p = kind.envPrefix();
            env.put(p + "ADDRESS", hostPort(server));
            env.put(p + "TLS_CA", fixtures.caFile().toString());
            env.put(p + "TLS_CLIENT_CERT", fixtures.clientCert().toString());
            env.put(p + "TLS_CLIENT_KEY", fixtures.clientKey().toString());
            NatsTarget t = h.start(TargetHarness.config(env));

            TargetHarness.sendAll(t, kind, 0, EVENTS);
            h.awaitResolved(EVENTS);

            assertThat(t.verdictPass()).isTrue();
            assertStreamHoldsEachResolvedEntryOnce(admin, h);
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void serverCertForAnotherHostIsRefusedAndEventsStayQueued(TargetKind kind) throws Exception {
        NatsServer server = NatsServer.builder().config(fixtures.tls(ServerCert.WRONG_HOST)).build().start();
        try (TargetHarness h = new TargetHarness(server)) {
            Map<String, String> env = h.jetStreamEnv(kind);
            env.put(kind.envPrefix() + "ADDRESS", hostPort(server));
            env.put(kind.envPrefix() + "TLS_CA", fixtures.caFile().toString());
            NatsTarget t = h.start(TargetHarness.config(env));

            TargetHarness.sendAll(t, kind, 0, EVENTS);
            h.events.await(AttemptFailed.class, e -> true, TargetHarness.AWAIT);
            h.sleeper.awaitPending(Duration.ofSeconds(4), TargetHarness.AWAIT);
            h.sleeper.advance(Duration.ofSeconds(4));
            List<AttemptFailed> failures = h.events.awaitCount(AttemptFailed.class, e -> true, 2, TargetHarness.AWAIT);

            assertThat(failures).allSatisfy(f -> {
                assertThat(f.outcome().family()).isEqualTo(Outcome.Family.TRANSIENT);
                assertThat(f.outcome().cause()).isEqualTo(Outcome.Cause.CONNECT_FAILED);
            });
            assertThat(h.events.all(ConnectionChanged.class)).noneMatch(e -> e.event() == ConnectionEvent.CONNECTED);
            assertThat(t.queueLength()).as("nothing lost").isEqualTo(EVENTS);
            ConnectionBehaviourTest.assertNothingFailed(h, t);
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void rotatedTlsMaterialResetsTheVerdictAndConnectsAgain(TargetKind kind) throws Exception {
        NatsServer server = NatsServer.builder().config(fixtures.tls(ServerCert.LOCALHOST)).build().start();
        ConnectionSettings adminSettings = ConnectionSettings.builder(hostPort(server)).tlsCa(fixtures.caFile()).build();
        try (TargetHarness h = new TargetHarness(server);
             FaultProxy proxy = FaultProxy.in(server);
             Connection admin = connect(adminSettings)) {
            Streams.create(admin, defaultStream());
            Map<String, String> env = h.jetStreamEnv(kind);
            // Through a proxy, so the test can count the connections the target opens.
            env.put(kind.envPrefix() + "ADDRESS", "127.0.0.1:" + proxy.port());
            env.put(kind.envPrefix() + "TLS_CA", fixtures.caFile().toString());
            NatsTarget t = h.start(TargetHarness.config(env));
            TargetHarness.sendAll(t, kind, 0, EVENTS);
            h.awaitResolved(EVENTS);
            assertThat(proxy.acceptedConnections()).isEqualTo(1);

            rewriteWithNewMtime(fixtures.caFile());
            TargetHarness.sendAll(t, kind, EVENTS, EVENTS);
            VerdictChanged rotated = h.events.await(VerdictChanged.class,
                e -> e.reason().equals(Optional.of(ResetReason.TLS_ROTATED)), TargetHarness.AWAIT);
            h.awaitResolved(2 * EVENTS);

            assertThat(rotated.state()).isEqualTo(StreamVerdict.UNSET);
            List<VerdictChanged> verdicts = h.events.all(VerdictChanged.class);
            assertThat(verdicts.subList(verdicts.indexOf(rotated), verdicts.size()))
                .as("validated again after the rotation").anyMatch(v -> v.state() == StreamVerdict.PASS);
            assertThat(proxy.acceptedConnections()).as("a new connection after the rotation").isEqualTo(2);
            assertThat(h.events.all(ConnectionChanged.class))
                .filteredOn(e -> e.event() == ConnectionEvent.CONNECTED).hasSize(2);
            assertStreamHoldsEachResolvedEntryOnce(admin, h);
        }
    }

    /** The seed line of a {@code .creds} file. */
    private static String seedIn(Path creds) throws Exception {
        return Files.readAllLines(creds).stream().map(String::strip).filter(l -> l.startsWith("SU")).findFirst()
            .orElseThrow();
    }

    /** Writes the same bytes back with a later mtime, as a deployment that re-copies a file does. */
    private static void rewriteWithNewMtime(Path file) throws Exception {
        FileTime before = Files.getLastModifiedTime(file);
        Files.write(file, Files.readAllBytes(file));
        Files.setLastModifiedTime(file, FileTime.fromMillis(before.toMillis() + 60_000));
    }

    private static void assertStreamHoldsEachResolvedEntryOnce(Connection admin, TargetHarness h) {
        List<StoredMessage> stored = Streams.readAll(admin, TargetHarness.STREAM);
        Set<String> resolved = h.events.all(EntryResolved.class).stream().map(EntryResolved::msgId)
            .collect(Collectors.toSet());
        assertThat(stored).hasSize(resolved.size());
        assertThat(stored.stream().map(m -> m.msgId().orElseThrow()).collect(Collectors.toSet())).isEqualTo(resolved);
    }

    private static StreamSpec defaultStream() {
        return StreamSpec.of(TargetHarness.STREAM, TargetHarness.SUBJECT).duplicateWindow(Duration.ofSeconds(274)).build();
    }

    private static String hostPort(NatsServer server) {
        return "127.0.0.1:" + server.port();
    }

    private static Connection connect(ConnectionSettings settings) throws Exception {
        return ConnectionFactory.builder(settings).connectionName("secure-connection-test admin").build()
            .connect(Duration.ofSeconds(10));
    }
}

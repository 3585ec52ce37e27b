package dev.jetsink.internal.nats;

import dev.jetsink.internal.nats.ConnectFailedException.Reason;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.SecurityFixtures.ServerCert;
import dev.jetsink.testkit.SecurityFixtures;
import io.nats.client.Connection;
import io.nats.client.JetStreamManagement;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.Subscription;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each auth and TLS key of a target against a real nats-server configured from the testkit
 * fixtures.
 */
class NatsConnectionSecurityTest {
    private static final Duration DEADLINE = Duration.ofSeconds(10);
    private static final String PASSWORD = "pa55-Wrong-Or-Right";
    private static final String TOKEN = "t0ken-Of-The-Test";

    @TempDir
    Path dir;
    private SecurityFixtures fixtures;
    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeEach
    void materialize() throws Exception {
        fixtures = SecurityFixtures.materialize(dir);
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    @Test
    void tlsWithCaAndClientCertConnects() throws Exception {
        NatsServer server = start(fixtures.tlsVerifyClient());
        ConnectionSettings settings = ConnectionSettings.builder("127.0.0.1:" + server.port())
                .tlsCa(fixtures.caFile()).tlsClient(fixtures.clientCert(), fixtures.clientKey()).build();
        assertRoundTrip(connect(settings), server);
    }

    @Test
    void tlsUrlWithCaConnects() throws Exception {
        NatsServer server = start(fixtures.tls(ServerCert.LOCALHOST));
        ConnectionSettings settings = ConnectionSettings.builder("tls://127.0.0.1:" + server.port())
                .tlsCa(fixtures.caFile()).build();
        assertRoundTrip(connect(settings), server);
    }

    @Test
    void serverCertForAnotherHostIsRefused() throws Exception {
        NatsServer server = start(fixtures.tls(ServerCert.WRONG_HOST));
        ConnectionSettings settings = ConnectionSettings.builder("127.0.0.1:" + server.port())
                .tlsCa(fixtures.caFile()).build();
        assertThatThrownBy(() -> connect(settings))
                .isInstanceOfSatisfying(ConnectFailedException.class, NatsConnectionSecurityTest::isTlsFailure);
    }

    /** The control for the test above: jnats with a plain context of the same trust connects. */
    @Test
    void jnatsAloneAcceptsAnotherHostsCertificate() throws Exception {
        NatsServer server = start(fixtures.tls(ServerCert.WRONG_HOST));
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", PemTls.readCertificates(fixtures.caFile()).get(0));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext plain = SSLContext.getInstance("TLS");
        plain.init(null, tmf.getTrustManagers(), null);
        Connection connection = Nats.connect(new Options.Builder().server(server.url()).sslContext(plain)
                .maxReconnects(0).build());
        opened.add(connection);
        assertThat(connection.getStatus()).isEqualTo(Connection.Status.CONNECTED);
    }

    /**
     * With TLS 1.3 the server checks the client certificate after the client considers the handshake
     * done, then drops the link; jnats only sees a timeout, so no particular reason is asserted.
     */
    @Test
    void serverRequiringClientCertRefusesClientWithout() throws Exception {
        NatsServer server = start(fixtures.tlsVerifyClient());
        ConnectionSettings settings = ConnectionSettings.builder("127.0.0.1:" + server.port())
                .tlsCa(fixtures.caFile()).build();
        assertThatThrownBy(() -> connectExpectingRefusal(settings)).isInstanceOf(ConnectFailedException.class);
    }

    @Test
    void tlsRequiredWithoutCaTrustsOnlyTheJdkDefaults() throws Exception {
        NatsServer server = start(fixtures.tls(ServerCert.LOCALHOST));
        ConnectionSettings settings = ConnectionSettings.builder("127.0.0.1:" + server.port()).tlsRequired(true).build();
        assertThatThrownBy(() -> connect(settings))
                .isInstanceOfSatisfying(ConnectFailedException.class, NatsConnectionSecurityTest::isTlsFailure);
    }

    @Test
    void tlsRequiredAgainstPlainServerFails() throws Exception {
        NatsServer server = start("");
        ConnectionSettings settings = ConnectionSettings.builder("127.0.0.1:" + server.port())
                .tlsCa(fixtures.caFile()).build();
        assertThatThrownBy(() -> connect(settings))
                .isInstanceOfSatisfying(ConnectFailedException.class, NatsConnectionSecurityTest::isTlsFailure);
    }

    @Test
    void userPasswordConnects() throws Exception {
        NatsServer server = start(SecurityFixtures.userPassword("alice", PASSWORD));
        assertRoundTrip(connect(ConnectionSettings.builder("127.0.0.1:" + server.port())
                .userPassword("alice", PASSWORD).build()), server);
    }

    @Test
    void tokenConnects() throws Exception {
        NatsServer server = start(SecurityFixtures.token(TOKEN));
        assertRoundTrip(connect(ConnectionSettings.builder("127.0.0.1:" + server.port()).token(TOKEN).build()), server);
    }

    @Test
    void credsFileConnectsToOperatorModeServerWithJetStream() throws Exception {
        NatsServer server = start(fixtures.operatorCreds());
        Connection connection = connect(ConnectionSettings.builder("127.0.0.1:" + server.port())
                .credentialsFile(fixtures.credsFile()).build());
        JetStreamManagement jsm = connection.jetStreamManagement();
        jsm.addStream(StreamConfiguration.builder().name("CREDS").subjects("creds.>")
                .storageType(StorageType.File).build());
        assertThat(connection.jetStream().publish("creds.a", "x".getBytes(StandardCharsets.UTF_8)).getSeqno())
                .as(server.logTail(20)).isEqualTo(1);
    }

    @Test
    void badPasswordFailsToConnectWithoutShowingIt() throws Exception {
        NatsServer server = start(SecurityFixtures.userPassword("alice", "the-right-one"));
        ConnectionSettings settings = ConnectionSettings.builder("127.0.0.1:" + server.port())
                .userPassword("alice", PASSWORD).build();
        assertAuthenticationFailureHides(settings, PASSWORD);
    }

    @Test
    void badTokenFailsToConnectWithoutShowingIt() throws Exception {
        NatsServer server = start(SecurityFixtures.token("the-right-token"));
        assertAuthenticationFailureHides(ConnectionSettings.builder("127.0.0.1:" + server.port()).token(TOKEN).build(),
                TOKEN);
    }

    @Test
    void credsOfAnUnknownAccountFailToConnect() throws Exception {
        NatsServer server = start(fixtures.operatorCreds());
        ConnectionSettings settings = ConnectionSettings.builder("127.0.0.1:" + server.port())
                .credentialsFile(fixtures.strangerCredsFile()).build();
        assertThatThrownBy(() -> connectExpectingRefusal(settings)).isInstanceOfSatisfying(ConnectFailedException.class,
                e -> assertThat(e.reason()).isEqualTo(Reason.AUTHENTICATION));
    }

    @Test
    void missingCredsFileIsNamedWithoutConnecting() {
        Path missing = dir.resolve("gone.creds");
        ConnectionSettings settings = ConnectionSettings.builder("127.0.0.1:1").credentialsFile(missing).build();
        assertThatThrownBy(() -> connect(settings)).isInstanceOfSatisfying(ConnectFailedException.class,
                e -> assertThat(e.reason()).isEqualTo(Reason.CREDENTIALS_FILE)).hasMessageContaining(missing.toString());
    }

    @Test
    void unreadableTlsMaterialIsAConnectionFailureNamingTheFile() {
        Path missing = dir.resolve("gone-ca.pem");
        ConnectionSettings settings = ConnectionSettings.builder("127.0.0.1:1").tlsCa(missing).build();
        assertThatThrownBy(() -> connect(settings)).isInstanceOfSatisfying(ConnectFailedException.class,
                e -> assertThat(e.reason()).isEqualTo(Reason.TLS_MATERIAL)).hasMessageContaining(missing.toString());
    }

    private static void isTlsFailure(ConnectFailedException e) {
        assertThat(e.reason()).as(e.getMessage()).isEqualTo(Reason.TLS);
    }

    private void assertAuthenticationFailureHides(ConnectionSettings settings, String secret) {
        assertThatThrownBy(() -> connectExpectingRefusal(settings))
                .isInstanceOfSatisfying(ConnectFailedException.class, e -> {
                    assertThat(e.reason()).isEqualTo(Reason.AUTHENTICATION);
                    for (Throwable t = e; t != null; t = t.getCause()) {
                        assertThat(String.valueOf(t.getMessage())).doesNotContain(secret);
                    }
                });
    }

    private void assertRoundTrip(Connection connection, NatsServer server) throws Exception {
        Subscription sub = connection.subscribe("probe");
        connection.publish("probe", "ping".getBytes(StandardCharsets.UTF_8));
        Message got = sub.nextMessage(Duration.ofSeconds(5));
        assertThat(got).as(server.logTail(20)).isNotNull();
        assertThat(new String(got.getData(), StandardCharsets.UTF_8)).isEqualTo("ping");
    }

    private Connection connect(ConnectionSettings settings) throws Exception {
        Connection connection = ConnectionFactory.builder(settings).connectionName("security-test").build()
                .connect(DEADLINE);
        opened.add(connection);
        return connection;
    }

    /**
     * jnats waits out the whole connect timeout after a refused CONNECT; a local server answers in
     * milliseconds, so a short timeout keeps these tests fast without changing what they prove.
     */
    private Connection connectExpectingRefusal(ConnectionSettings settings) throws Exception {
        Connection connection = ConnectionFactory.builder(settings).connectTimeout(Duration.ofMillis(750)).build()
                .connect(DEADLINE);
        opened.add(connection);
        return connection;
    }

    private NatsServer start(String config) {
        NatsServer server = NatsServer.builder().config(config).build();
        opened.add(server);
        return server.start();
    }
}

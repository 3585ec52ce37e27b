package dev.jetsink.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jetsink.testkit.SecurityFixtures.ServerCert;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed fixtures are what SecurityFixtures says they are. TLS and the other auth modes are
 * exercised through jetsink's own connection code in core; here only what core does not use.
 */
class SecurityFixturesTest {
    @TempDir
    Path dir;
    private SecurityFixtures fixtures;

    @BeforeEach
    void materialize() throws IOException {
        fixtures = SecurityFixtures.materialize(dir.resolve("sec"));
    }

    @Test
    void everyNamedFileIsMaterializedAtAnAbsolutePath() {
        Stream.of(fixtures.caFile(), fixtures.serverCert(ServerCert.LOCALHOST), fixtures.serverKey(ServerCert.LOCALHOST),
                        fixtures.serverCert(ServerCert.WRONG_HOST), fixtures.serverKey(ServerCert.WRONG_HOST),
                        fixtures.clientCert(), fixtures.clientKey(), fixtures.credsFile(), fixtures.strangerCredsFile(),
                        fixtures.nkeySeedFile())
                .forEach(p -> assertThat(p).isAbsolute().isRegularFile());
    }

    @Test
    void configTextNamesTheMaterializedFiles() {
        assertThat(fixtures.tls(ServerCert.WRONG_HOST))
                .contains(fixtures.serverCert(ServerCert.WRONG_HOST).toString());
        assertThat(fixtures.tlsVerifyClient()).contains(fixtures.caFile().toString()).contains("verify: true");
        assertThat(fixtures.operatorCreds()).contains("resolver: MEMORY").contains("operator.jwt");
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    @Test
    void nkeyUserConnects() throws Exception {
        try (NatsServer server = NatsServer.builder().jetStream(false).config(fixtures.nkey()).build().start();
             Connection connection = Nats.connect(nkeyOptions(server, fixtures.nkeySeed(), Duration.ofSeconds(10)))) {
            assertThat(connection.getStatus()).as(server.logTail(10)).isEqualTo(Connection.Status.CONNECTED);
        }
    }

    @Test
    void otherNkeyIsRefused() throws Exception {
        String otherSeed = new String(io.nats.client.NKey.createUser(new java.security.SecureRandom()).getSeed());
        try (NatsServer server = NatsServer.builder().jetStream(false).config(fixtures.nkey()).build().start()) {
            assertThatThrownBy(() -> Nats.connect(nkeyOptions(server, otherSeed, Duration.ofMillis(750))).close())
                    .isInstanceOf(io.nats.client.AuthenticationException.class);
        }
    }

    @Test
    void nkeySeedFileHoldsTheSeed() throws IOException {
        assertThat(Files.readString(fixtures.nkeySeedFile()).strip()).startsWith("SU").isEqualTo(fixtures.nkeySeed());
        assertThat(fixtures.nkeyPublicKey()).startsWith("U");
    }

    /** A refusal waits out the whole connect timeout, so refusal tests keep it short; a success never does. */
    private static Options nkeyOptions(NatsServer server, String seed, Duration connectTimeout) {
        return new Options.Builder().server(server.url()).maxReconnects(0)
                .connectionTimeout(connectTimeout)
                .authHandler(Nats.staticCredentials(null, seed.toCharArray())).build();
    }
}

package dev.jetsink.internal.nats;

import dev.jetsink.testkit.SecurityFixtures.ServerCert;
import dev.jetsink.testkit.SecurityFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PemTlsTest {
    private static final String SECRET_LOOKING = "hunter2-SECRET-KEY-MATERIAL";

    @TempDir
    Path dir;
    private SecurityFixtures fixtures;

    @BeforeEach
    void materialize() throws Exception {
        fixtures = SecurityFixtures.materialize(dir.resolve("fixtures"));
    }

    @Test
    void caAndClientIdentityLoadFromPem() throws Exception {
        SSLContext context = PemTls.clientContext(Optional.of(fixtures.caFile()),
                Optional.of(fixtures.clientCert()), Optional.of(fixtures.clientKey()));
        assertThat(context).isInstanceOf(HostnameVerifyingSslContext.class);
    }

    @Test
    void ecAndRsaPkcs8KeysBothLoad() throws Exception {
        assertThat(PemTls.readPrivateKey(fixtures.clientKey()).getAlgorithm()).isEqualTo("EC");
        assertThat(PemTls.readPrivateKey(fixtures.serverKey(ServerCert.LOCALHOST)).getAlgorithm()).isEqualTo("RSA");
    }

    @Test
    void noCaMeansTheJdkDefaultTrust() throws Exception {
        SSLContext context = PemTls.clientContext(Optional.empty(), Optional.empty(), Optional.empty());
        assertThat(context.getSocketFactory()).isNotNull();
    }

    @Test
    void missingFileIsNamedInTheError() {
        Path missing = dir.resolve("nope/ca.pem");
        assertThatThrownBy(() -> PemTls.clientContext(Optional.of(missing), Optional.empty(), Optional.empty()))
                .isInstanceOfSatisfying(TlsMaterialException.class, e -> assertThat(e.file()).isEqualTo(missing))
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("does not exist");
    }

    @Test
    void garbageCaIsRefusedWithoutQuotingIt() throws Exception {
        Path garbage = write("garbage-ca.pem", "this is not PEM " + SECRET_LOOKING);
        assertThatThrownBy(() -> PemTls.clientContext(Optional.of(garbage), Optional.empty(), Optional.empty()))
                .isInstanceOf(TlsMaterialException.class)
                .hasMessageContaining(garbage.toString())
                .hasMessageNotContaining(SECRET_LOOKING);
    }

    @Test
    void corruptCertificateBlockIsRefused() throws Exception {
        Path corrupt = write("corrupt-cert.pem", pem("CERTIFICATE", SECRET_LOOKING));
        assertThatThrownBy(() -> PemTls.readCertificates(corrupt))
                .isInstanceOf(TlsMaterialException.class)
                .hasMessageContaining("not a valid X.509 certificate")
                .hasMessageNotContaining(SECRET_LOOKING)
                .hasNoCause();
    }

    @Test
    void garbageKeyIsRefusedWithoutQuotingIt() throws Exception {
        Path key = write("client-key.pem", pem("PRIVATE KEY", SECRET_LOOKING));
        assertThatThrownBy(() -> PemTls.clientContext(Optional.of(fixtures.caFile()),
                Optional.of(fixtures.clientCert()), Optional.of(key)))
                .isInstanceOf(TlsMaterialException.class)
                .hasMessageContaining(key.toString())
                .hasMessageContaining("not a valid PKCS#8")
                .hasMessageNotContaining(SECRET_LOOKING)
                .hasMessageNotContaining(Base64.getEncoder().encodeToString(SECRET_LOOKING.getBytes(StandardCharsets.US_ASCII)))
                .hasNoCause();
    }

    @Test
    void pkcs1KeyIsRefusedWithAHint() throws Exception {
        Path key = write("rsa-key.pem", pem("RSA PRIVATE KEY", SECRET_LOOKING));
        assertThatThrownBy(() -> PemTls.readPrivateKey(key))
                .isInstanceOf(TlsMaterialException.class)
                .hasMessageContaining("PKCS#8");
    }

    @Test
    void keyOfAnotherCertificateIsRefusedNamingBothFiles() {
        Path otherKey = fixtures.serverKey(ServerCert.LOCALHOST);
        assertThatThrownBy(() -> PemTls.clientContext(Optional.of(fixtures.caFile()),
                Optional.of(fixtures.clientCert()), Optional.of(otherKey)))
                .isInstanceOf(TlsMaterialException.class)
                .hasMessageContaining(otherKey.toString())
                .hasMessageContaining(fixtures.clientCert().toString());
    }

    @Test
    void clientCertWithoutKeyIsRefused() {
        assertThatThrownBy(() -> PemTls.clientContext(Optional.empty(), Optional.of(fixtures.clientCert()),
                Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tls_client_cert and tls_client_key");
    }

    private Path write(String name, String content) throws Exception {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.US_ASCII);
    }

    private static String pem(String type, String payload) {
        String body = Base64.getMimeEncoder().encodeToString(payload.getBytes(StandardCharsets.US_ASCII));
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }
}

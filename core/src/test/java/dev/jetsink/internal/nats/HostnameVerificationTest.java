package dev.jetsink.internal.nats;

import dev.jetsink.testkit.SecurityFixtures.ServerCert;
import dev.jetsink.testkit.SecurityFixtures;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * TLS to NATS verifies the server host name (DESIGN.md "NATS connection"). The client side is
 * driven exactly as jnats 2.26.2 drives it (plain socket, then
 * {@code getSocketFactory().createSocket(socket, host, port, true)}, client mode, handshake),
 * against an in-JVM TLS listener serving the fixture certificates.
 */
class HostnameVerificationTest {
    @TempDir
    Path dir;
    private SecurityFixtures fixtures;

    @BeforeEach
    void materialize() throws Exception {
        fixtures = SecurityFixtures.materialize(dir);
    }

    @Test
    void certificateForTheDialledIpIsAccepted() throws Exception {
        try (InJvmTlsServer server = serving(ServerCert.LOCALHOST)) {
            assertThatCode(() -> handshakeLikeJnats(verifyingContext(), "127.0.0.1", server.port()))
                    .doesNotThrowAnyException();
        }
    }

    @Test
    void certificateForTheDialledHostNameIsAccepted() throws Exception {
        try (InJvmTlsServer server = serving(ServerCert.LOCALHOST)) {
            assertThatCode(() -> handshakeLikeJnats(verifyingContext(), "localhost", server.port()))
                    .doesNotThrowAnyException();
        }
    }

    @Test
    void certificateForAnotherHostIsRefused() throws Exception {
        try (InJvmTlsServer server = serving(ServerCert.WRONG_HOST)) {
            assertThatThrownBy(() -> handshakeLikeJnats(verifyingContext(), "127.0.0.1", server.port()))
                    .isInstanceOf(SSLHandshakeException.class)
                    .hasMessageContaining("127.0.0.1");
        }
    }

    @Test
    void certificateForAnotherHostIsRefusedWhenDialledByName() throws Exception {
        try (InJvmTlsServer server = serving(ServerCert.WRONG_HOST)) {
            assertThatThrownBy(() -> handshakeLikeJnats(verifyingContext(), "localhost", server.port()))
                    .isInstanceOf(SSLHandshakeException.class)
                    .hasMessageContaining("localhost");
        }
    }

    /** Why the wrapper exists: the same trust, unwrapped, accepts a certificate for another host. */
    @Test
    void plainJdkContextWouldAcceptAnotherHostsCertificate() throws Exception {
        SSLContext plain = SSLContext.getInstance("TLS");
        plain.init(null, trustOnlyFixtureCa(), null);
        try (InJvmTlsServer server = serving(ServerCert.WRONG_HOST)) {
            assertThatCode(() -> handshakeLikeJnats(plain, "127.0.0.1", server.port())).doesNotThrowAnyException();
        }
    }

    @Test
    void enginesMadeForAHostVerifyIt() throws Exception {
        SSLEngine engine = verifyingContext().createSSLEngine("localhost", 4222);
        assertThat(engine.getSSLParameters().getEndpointIdentificationAlgorithm()).isEqualTo("HTTPS");
    }

    @Test
    void wrappingTwiceKeepsOneWrapper() throws Exception {
        SSLContext context = verifyingContext();
        assertThat(HostnameVerifyingSslContext.wrap(context)).isSameAs(context);
    }

    private SSLContext verifyingContext() throws Exception {
        return PemTls.clientContext(Optional.of(fixtures.caFile()), Optional.empty(), Optional.empty());
    }

    private javax.net.ssl.TrustManager[] trustOnlyFixtureCa() throws Exception {
        java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setCertificateEntry("ca", PemTls.readCertificates(fixtures.caFile()).get(0));
        javax.net.ssl.TrustManagerFactory factory = javax.net.ssl.TrustManagerFactory.getInstance(
                javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        return factory.getTrustManagers();
    }

    private InJvmTlsServer serving(ServerCert kind) throws Exception {
        return new InJvmTlsServer(fixtures.serverCert(kind), fixtures.serverKey(kind));
    }

    /** The sequence of {@code io.nats.client.impl.SocketDataPort.upgradeToSecure()} in jnats 2.26.2. */
    private static void handshakeLikeJnats(SSLContext context, String host, int port) throws Exception {
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            plain.setSoTimeout(5_000);
            try (SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, true)) {
                tls.setUseClientMode(true);
                tls.startHandshake();
            }
        }
    }
}

package dev.jetsink.server.http;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.nats.PemTls;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.MetricsText;
import dev.jetsink.server.testing.TestCa;
import dev.jetsink.server.testing.WebhookFixtures;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/** TLS on the HTTP port (ingest, admin, metrics, health), with certificates from a CA made per test. */
class HttpTlsTest {

    @TempDir
    Path dir;

    @Test
    void aClientTrustingTheCaPostsAnEventOverTls() throws Exception {
        TestCa ca = TestCa.create(dir, "right");
        Path[] server = ca.issueServer("server", 11);
        try (DaemonHarness h = tlsDaemon(server, Optional.empty())) {
            Answer a = exchange(h, context(ca.cert, Optional.empty()), post(WebhookFixtures.putPhoto(1)));
            assertThat(a.statusLine).isEqualTo("HTTP/1.1 200 OK");
            assertThat(a.serial).isEqualTo(BigInteger.valueOf(11));
            await().atMost(DaemonHarness.AWAIT).until(() -> h.target(TargetKind.NOTIFY, "_").counters().acceptedCount() == 1);
            assertThat(exchange(h, context(ca.cert, Optional.empty()), get("/health")).statusLine).contains("200");
        }
    }

    @Test
    void aClientTrustingAnotherCaRefusesTheServer() throws Exception {
        TestCa ca = TestCa.create(dir, "right");
        TestCa other = TestCa.create(dir, "other");
        try (DaemonHarness h = tlsDaemon(ca.issueServer("server", 12), Optional.empty())) {
            assertThatThrownBy(() -> exchange(h, context(other.cert, Optional.empty()), get("/health")))
                .isInstanceOf(javax.net.ssl.SSLHandshakeException.class);
        }
    }

    @Test
    void plainHttpToTheTlsPortGetsNoAnswer() throws Exception {
        TestCa ca = TestCa.create(dir, "right");
        try (DaemonHarness h = tlsDaemon(ca.issueServer("server", 13), Optional.empty());
             Socket plain = new Socket("127.0.0.1", h.daemon.address().getPort())) {
            plain.setSoTimeout(10_000);
            plain.getOutputStream().write(post(WebhookFixtures.putPhoto(1)));
            byte[] reply = readSome(plain.getInputStream());
            assertThat(new String(reply, StandardCharsets.ISO_8859_1)).doesNotStartWith("HTTP/1.1 200");
            assertThat(h.target(TargetKind.NOTIFY, "_").counters().acceptedCount()).isZero();
        }
    }

    @Test
    void withAClientCaAClientWithoutACertificateIsRefusedAndOneWithACertificateIsServed() throws Exception {
        TestCa ca = TestCa.create(dir, "right");
        TestCa clients = TestCa.create(dir, "clients");
        Path[] client = clients.issueClient("client", 21);
        try (DaemonHarness h = tlsDaemon(ca.issueServer("server", 14), Optional.of(clients.cert))) {
            assertThatThrownBy(() -> exchange(h, context(ca.cert, Optional.empty()), post(WebhookFixtures.putPhoto(1))))
                .isInstanceOf(IOException.class);
            Answer served = exchange(h, context(ca.cert, Optional.of(client)), post(WebhookFixtures.putPhoto(2)));
            assertThat(served.statusLine).isEqualTo("HTTP/1.1 200 OK");
            assertThat(h.target(TargetKind.NOTIFY, "_").counters().acceptedCount()).isEqualTo(1);
        }
    }

    @Test
    void aRotatedCertificateReachesNewConnectionsWithoutARestartAndABrokenOneIsNotTaken() throws Exception {
        TestCa ca = TestCa.create(dir, "right");
        Path[] first = ca.issueServer("first", 101);
        Path cert = dir.resolve("live-cert.pem");
        Path key = dir.resolve("live-key.pem");
        Files.copy(first[0], cert);
        Files.copy(first[1], key);
        try (DaemonHarness h = tlsDaemon(new Path[] {cert, key}, Optional.empty())) {
            SSLContext trusting = context(ca.cert, Optional.empty());
            assertThat(exchange(h, trusting, get("/health")).serial).isEqualTo(BigInteger.valueOf(101));

            Path[] second = ca.issueServer("second", 202);
            replace(second[1], key);
            replace(second[0], cert);
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> exchange(h, trusting, get("/health")).serial.equals(BigInteger.valueOf(202)));

            Files.writeString(dir.resolve("broken.pem"), "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n");
            replace(dir.resolve("broken.pem"), key);
            await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(500))
                .until(() -> exchange(h, trusting, get("/health")).serial.equals(BigInteger.valueOf(202)));
        }
    }

    @Test
    void certificateExpiryIsTheServedCertificatesAndFollowsARotation() throws Exception {
        TestCa ca = TestCa.create(dir, "right");
        Path[] first = ca.issueServer("first", 301, 2);
        Path cert = dir.resolve("live-cert.pem");
        Path key = dir.resolve("live-key.pem");
        Files.copy(first[0], cert);
        Files.copy(first[1], key);
        try (DaemonHarness h = tlsDaemon(new Path[] {cert, key}, Optional.empty())) {
            java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder()
                .sslContext(context(ca.cert, Optional.empty())).build();
            assertThat(expirySeconds(h, client)).isCloseTo(secondsLeft(first[0]), within(60.0))
                .isBetween(Duration.ofDays(1).toSeconds() * 1.0, Duration.ofDays(2).toSeconds() * 1.0);

            Path[] second = ca.issueServer("second", 302, 30);
            replace(second[1], key);
            replace(second[0], cert);
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> expirySeconds(h, client) > Duration.ofDays(29).toSeconds());
            assertThat(expirySeconds(h, client)).isCloseTo(secondsLeft(second[0]), within(60.0));
        }
    }

    private static double secondsLeft(Path certificate) throws Exception {
        long notAfter = PemTls.readCertificates(certificate).get(0).getNotAfter().getTime();
        return (notAfter - System.currentTimeMillis()) / 1000.0;
    }

    private static double expirySeconds(DaemonHarness h, java.net.http.HttpClient client) throws Exception {
        java.net.http.HttpResponse<String> r = client.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("https://127.0.0.1:" + h.daemon.address().getPort() + "/metrics")).build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        Double v = MetricsText.samples(r.body()).get("jetsink_http_tls_certificate_expiry_seconds");
        assertThat(v).as("jetsink_http_tls_certificate_expiry_seconds on /metrics").isNotNull();
        return v;
    }

    @Test
    void atTheConnectionCapTheLongestIdleTlsConnectionMakesWayAndATlsUploadInProgressDoesNot() throws Exception {
        TestCa ca = TestCa.create(dir, "right");
        Path[] server = ca.issueServer("server", 31);
        SSLContext trusting = context(ca.cert, Optional.empty());
        DaemonHarness h = new DaemonHarness();
        try (h) {
            h.withDefaultStream().with(Map.of("JETSINK_HTTP_MAX_CONNECTIONS", "3",
                "JETSINK_HTTP_TLS_CERT", server[0].toAbsolutePath().toString(),
                "JETSINK_HTTP_TLS_KEY", server[1].toAbsolutePath().toString())).start();
            evictTheLongestIdleTlsConnection(h, trusting);
        }
    }

    private void evictTheLongestIdleTlsConnection(DaemonHarness h, SSLContext trusting) throws Exception {
        try (SSLSocket uploading = open(h, trusting); SSLSocket idle = open(h, trusting);
             SSLSocket idleLater = open(h, trusting)) {
            byte[] body = WebhookFixtures.putPhoto(31).getBytes(StandardCharsets.UTF_8);
            OutputStream up = uploading.getOutputStream();
            up.write(("POST /notify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            up.write(body, 0, body.length / 2);
            up.flush();
            await().atMost(DaemonHarness.AWAIT).until(() -> h.daemon.http().idleConnections() == 2);
            // The server's own clock decides which is idle longest: its last I/O on each handshake can
            // come in either order on a loaded host, so idleLater answers a request and is younger for sure.
            idleLater.getOutputStream().write("GET /live HTTP/1.1\r\nHost: localhost\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
            assertThat(new String(readSome(idleLater.getInputStream()), StandardCharsets.ISO_8859_1))
                .startsWith("HTTP/1.1 200");
            await().atMost(DaemonHarness.AWAIT).until(() -> h.daemon.http().idleConnections() == 2);

            try (SSLSocket newcomer = open(h, trusting)) {
                await().atMost(DaemonHarness.AWAIT).until(() -> closedByServer(idle));
                assertThat(h.daemon.http().idleEvicted()).isEqualTo(1);
                assertThat(closedByServer(idleLater)).as("the younger idle connection").isFalse();
                assertThat(closedByServer(uploading)).as("the oldest connection, mid-upload").isFalse();
                newcomer.getOutputStream().write(post(WebhookFixtures.putPhoto(32)));
                assertThat(new String(readSome(newcomer.getInputStream()), StandardCharsets.ISO_8859_1))
                    .startsWith("HTTP/1.1 200");
            }
            up.write(body, body.length / 2, body.length - body.length / 2);
            up.flush();
            assertThat(new String(readSome(uploading.getInputStream()), StandardCharsets.ISO_8859_1))
                .startsWith("HTTP/1.1 200");
        }
    }

    /** A TLS connection with its handshake done; the daemon's certificate comes from a fresh CA. */
    private SSLSocket open(DaemonHarness h, SSLContext context) throws IOException {
        SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", h.daemon.address().getPort());
        s.setSoTimeout(10_000);
        s.startHandshake();
        return s;
    }

    /** A bounded read (20 ms): the end of the stream, or a TLS error, means the server closed it. */
    private static boolean closedByServer(SSLSocket s) {
        try {
            s.setSoTimeout(20);
            return s.getInputStream().read() < 0;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        } finally {
            try {
                s.setSoTimeout(10_000);
            } catch (IOException e) {
                // closed
            }
        }
    }

    private DaemonHarness tlsDaemon(Path[] server, Optional<Path> clientCa) throws Exception {
        DaemonHarness h = new DaemonHarness().withDefaultStream().with(Map.of(
            "JETSINK_HTTP_TLS_CERT", server[0].toAbsolutePath().toString(),
            "JETSINK_HTTP_TLS_KEY", server[1].toAbsolutePath().toString()));
        clientCa.ifPresent(ca -> h.with(Map.of("JETSINK_HTTP_TLS_CLIENT_CA", ca.toAbsolutePath().toString())));
        return h.start();
    }

    private static void replace(Path from, Path to) throws IOException {
        Path tmp = to.resolveSibling(to.getFileName() + ".new");
        Files.copy(from, tmp, StandardCopyOption.REPLACE_EXISTING);
        Files.move(tmp, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static SSLContext context(Path trustedCa, Optional<Path[]> clientIdentity) throws Exception {
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(PemTls.trustStore(trustedCa));
        KeyManagerFactory keys = null;
        if (clientIdentity.isPresent()) {
            char[] password = "test".toCharArray();
            KeyStore store = PemTls.identityStore(clientIdentity.get()[0], clientIdentity.get()[1], password);
            keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, password);
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
        return context;
    }

    private record Answer(String statusLine, BigInteger serial) {
    }

    /** One request on a new TLS connection (so a rotation shows): its status line and the server's serial. */
    private static Answer exchange(DaemonHarness h, SSLContext context, byte[] request) throws IOException {
        try (SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", h.daemon.address().getPort())) {
            s.setSoTimeout(10_000);
            javax.net.ssl.SSLParameters p = s.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS");
            s.setSSLParameters(p);
            s.startHandshake();
            BigInteger serial = ((X509Certificate) s.getSession().getPeerCertificates()[0]).getSerialNumber();
            OutputStream out = s.getOutputStream();
            out.write(request);
            out.flush();
            String reply = new String(readSome(s.getInputStream()), StandardCharsets.ISO_8859_1);
            if (reply.isEmpty()) {
                throw new IOException("connection closed without an answer");
            }
            return new Answer(reply.lines().findFirst().orElse(""), serial);
        }
    }

    private static byte[] readSome(InputStream in) throws IOException {
        byte[] buf = new byte[4096];
        int n = in.read(buf);
        return n <= 0 ? new byte[0] : java.util.Arrays.copyOf(buf, n);
    }

    private static byte[] get(String path) {
        return ("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] post(String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        String head = "POST /notify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nConnection: close\r\n"
            + "Content-Length: " + body.length + "\r\n\r\n";
        byte[] out = new byte[head.length() + body.length];
        System.arraycopy(head.getBytes(StandardCharsets.US_ASCII), 0, out, 0, head.length());
        System.arraycopy(body, 0, out, head.length(), body.length);
        return out;
    }
}

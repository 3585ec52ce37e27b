package dev.jetsink.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Objects;
import java.util.Properties;

/**
 * The committed TEST-ONLY TLS and auth material (DESIGN.md "Test fixtures"), copied out of the
 * classpath into a directory of the caller's choosing, plus the nats-server config text for each
 * security mode.
 *
 * <p>nats-server config needs absolute file paths, which a classpath resource does not have, so
 * every use starts with {@link #materialize(Path)} (typically into a JUnit {@code @TempDir}). The
 * returned config snippets are independent top-level blocks: concatenate a TLS block and an auth
 * block to get both. How the material was made: {@code testkit/fixtures/gen-tls.sh} and
 * {@code FixtureGenerator} (test sources); see the README next to the resources.
 */
public final class SecurityFixtures {

    /** Which server certificate a TLS server presents; both are signed by the fixture CA. */
    public enum ServerCert {
        /** SAN {@code DNS:localhost, IP:127.0.0.1, IP:::1}: what a client dialling loopback expects. */
        LOCALHOST("server"),
        /** SAN {@code DNS:wrong.example} only: a verifying client dialling loopback must refuse it. */
        WRONG_HOST("wrong-host");

        private final String stem;

        ServerCert(String stem) {
            this.stem = stem;
        }
    }

    private static final String ROOT = "fixtures/";
    private static final List<String> TLS_FILES = List.of("ca.pem", "server-cert.pem", "server-key.pem",
            "wrong-host-cert.pem", "wrong-host-key.pem", "client-cert.pem", "client-key.pem");
    private static final List<String> AUTH_FILES = List.of("nkey-user.seed", "nkey-user.pub", "nkey-stranger.seed",
            "operator.jwt",
            "system-account.jwt", "account.jwt", "accounts.properties", "user.creds", "stranger.creds");
    /** nats-server's default TLS handshake timeout (0.5 s) is too short for a cold JVM on 2 shared cores. */
    private static final String TLS_HANDSHAKE_TIMEOUT_SECS = "5";

    private final Path tlsDir;
    private final Path authDir;

    private SecurityFixtures(Path dir) {
        this.tlsDir = dir.resolve("tls");
        this.authDir = dir.resolve("auth");
    }

    /**
     * Copies every fixture file into {@code dir/tls} and {@code dir/auth} (created if missing).
     *
     * @param dir where to put the files; made absolute because the server config requires it
     * @return the fixtures, addressable by absolute path
     */
    public static SecurityFixtures materialize(Path dir) throws IOException {
        SecurityFixtures fixtures = new SecurityFixtures(dir.toAbsolutePath());
        copyAll("tls/", TLS_FILES, fixtures.tlsDir);
        copyAll("auth/", AUTH_FILES, fixtures.authDir);
        return fixtures;
    }

    private static void copyAll(String prefix, List<String> names, Path target) throws IOException {
        Files.createDirectories(target);
        for (String name : names) {
            try (InputStream in = SecurityFixtures.class.getResourceAsStream(ROOT + prefix + name)) {
                if (in == null) {
                    throw new IOException("testkit fixture missing from the classpath: " + ROOT + prefix + name);
                }
                Files.copy(in, target.resolve(name), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /** The CA bundle that signed every fixture certificate. */
    public Path caFile() {
        return tlsDir.resolve("ca.pem");
    }

    /** The server certificate (PEM) of the given kind. */
    public Path serverCert(ServerCert kind) {
        return tlsDir.resolve(kind.stem + "-cert.pem");
    }

    /** The PKCS#8 RSA key (PEM) of the given server certificate. */
    public Path serverKey(ServerCert kind) {
        return tlsDir.resolve(kind.stem + "-key.pem");
    }

    /** The client certificate for mutual TLS (EC P-256, extended key usage clientAuth). */
    public Path clientCert() {
        return tlsDir.resolve("client-cert.pem");
    }

    /** The PKCS#8 EC key (PEM) of {@link #clientCert()}. */
    public Path clientKey() {
        return tlsDir.resolve("client-key.pem");
    }

    /** A {@code .creds} file (user JWT + seed) accepted by the {@link #operatorCreds()} server. */
    public Path credsFile() {
        return authDir.resolve("user.creds");
    }

    /** A well-formed {@code .creds} file of an account the operator-mode server does not know. */
    public Path strangerCredsFile() {
        return authDir.resolve("stranger.creds");
    }

    /** A file holding the user nkey seed ({@code SU...}) accepted by the {@link #nkey()} server. */
    public Path nkeySeedFile() {
        return authDir.resolve("nkey-user.seed");
    }

    /** A file holding a well-formed user seed that the {@link #nkey()} server does not list. */
    public Path strangerNkeySeedFile() {
        return authDir.resolve("nkey-stranger.seed");
    }

    /** The user nkey seed itself, for clients that take it in memory. */
    public String nkeySeed() {
        return read(nkeySeedFile());
    }

    /** The public user nkey ({@code U...}) the {@link #nkey()} server accepts. */
    public String nkeyPublicKey() {
        return read(authDir.resolve("nkey-user.pub"));
    }

    /** Server-side TLS with the given certificate; clients are not asked for a certificate. */
    public String tls(ServerCert kind) {
        return "tls {\n"
                + "  cert_file: " + quote(serverCert(kind)) + "\n"
                + "  key_file: " + quote(serverKey(kind)) + "\n"
                + "  timeout: " + TLS_HANDSHAKE_TIMEOUT_SECS + "\n"
                + "}\n";
    }

    /** Mutual TLS: the {@link ServerCert#LOCALHOST} certificate, and clients must present one signed by the CA. */
    public String tlsVerifyClient() {
        return "tls {\n"
                + "  cert_file: " + quote(serverCert(ServerCert.LOCALHOST)) + "\n"
                + "  key_file: " + quote(serverKey(ServerCert.LOCALHOST)) + "\n"
                + "  ca_file: " + quote(caFile()) + "\n"
                + "  verify: true\n"
                + "  timeout: " + TLS_HANDSHAKE_TIMEOUT_SECS + "\n"
                + "}\n";
    }

    /** Single-user user/password auth. */
    public static String userPassword(String user, String password) {
        return "authorization {\n  user: " + quote(user) + "\n  password: " + quote(password) + "\n}\n";
    }

    /** Token auth. */
    public static String token(String token) {
        return "authorization {\n  token: " + quote(token) + "\n}\n";
    }

    /** Nkey auth: only the fixture user nkey ({@link #nkeySeed()}) may connect. */
    public String nkey() {
        return "authorization {\n  users: [ { nkey: " + quote(nkeyPublicKey()) + " } ]\n}\n";
    }

    /**
     * Operator (decentralised JWT) mode with an in-memory resolver: the operator, a system account and
     * one application account whose JWT enables JetStream with unlimited storage. {@link #credsFile()}
     * belongs to that account. JetStream itself is switched on by the server's {@code -js} flag.
     */
    public String operatorCreds() {
        Properties keys = new Properties();
        try (InputStream in = Files.newInputStream(authDir.resolve("accounts.properties"))) {
            keys.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String system = Objects.requireNonNull(keys.getProperty("system_account"), "system_account");
        String account = Objects.requireNonNull(keys.getProperty("account"), "account");
        return "operator: " + quote(authDir.resolve("operator.jwt")) + "\n"
                + "system_account: " + system + "\n"
                + "resolver: MEMORY\n"
                + "resolver_preload: {\n"
                + "  " + system + ": " + quote(read(authDir.resolve("system-account.jwt"))) + "\n"
                + "  " + account + ": " + quote(read(authDir.resolve("account.jwt"))) + "\n"
                + "}\n";
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String quote(Path path) {
        return quote(path.toString());
    }

    /** nats-server config strings are JSON-like: escape backslash and double quote. */
    private static String quote(String text) {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}

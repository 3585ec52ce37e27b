package dev.jetsink.internal.nats;

import dev.jetsink.internal.config.Secret;
import dev.jetsink.internal.config.ServerAddress;
import dev.jetsink.internal.config.TargetConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * How one target reaches NATS: the servers and the auth/TLS keys of the target, already validated
 * as values. Files are only named here; they are read when connecting, because unreadable TLS or
 * creds material is a connection failure the target retries, not a configuration error
 * (DESIGN.md "NATS connection").
 *
 * <p>{@link #toString()} prints {@code password} and {@code token} as {@code ***}, names the seed
 * and creds files only by path (their content is read by {@link ConnectionFactory} alone), and
 * hides user info embedded in server URLs, so a settings object may be logged.
 *
 * @param servers         server URLs, {@code nats://} or {@code tls://}; see {@link #parseAddress(String)}
 * @param username        user for user/password auth, present together with {@code password}
 * @param password        password for user/password auth; {@link Secret} prints as {@code ***}
 * @param token           token auth; {@link Secret} prints as {@code ***}
 * @param credentialsFile NATS {@code .creds} file (user JWT + nkey seed)
 * @param nkeySeedFile    file holding an NKey user seed, for a server's nkey users
 * @param tlsCa           PEM CA bundle to trust instead of the JDK default
 * @param tlsClientCert   PEM client certificate, present together with {@code tlsClientKey}
 * @param tlsClientKey    PEM PKCS#8 key of {@code tlsClientCert}
 * @param tlsRequired     require TLS even when no TLS file is configured
 * @param jetStreamApi    where JetStream requests go (domain or API prefix)
 */
public record ConnectionSettings(List<String> servers, Optional<String> username, Optional<Secret> password,
                                 Optional<Secret> token, Optional<Path> credentialsFile, Optional<Path> nkeySeedFile,
                                 Optional<Path> tlsCa, Optional<Path> tlsClientCert, Optional<Path> tlsClientKey,
                                 boolean tlsRequired, JetStreamApi jetStreamApi) {
    private static final String HIDDEN = "***";

    /**
     * Checks the combinations the key table forbids (DESIGN.md "Configuration"); messages name
     * keys, never values.
     */
    public ConnectionSettings {
        servers = List.copyOf(servers);
        Stream.of(username, password, token, credentialsFile, nkeySeedFile, tlsCa, tlsClientCert, tlsClientKey,
                jetStreamApi).forEach(Objects::requireNonNull);
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("address must name at least one server");
        }
        servers.forEach(ConnectionSettings::requireUrl);
        if (username.isPresent() != password.isPresent()) {
            throw new IllegalArgumentException("username and password must be given together");
        }
        if (tlsClientCert.isPresent() != tlsClientKey.isPresent()) {
            throw new IllegalArgumentException("tls_client_cert and tls_client_key must be given together");
        }
        long methods = Stream.of(username, token, credentialsFile, nkeySeedFile).filter(Optional::isPresent).count();
        if (methods > 1) {
            throw new IllegalArgumentException(
                    "at most one auth method: username/password, token, credentials_file or nkey_seed_file");
        }
    }

    /** Settings for {@code address} with no auth and no TLS; add the rest with {@link #builder(String)}. */
    public static ConnectionSettings forAddress(String address) {
        return builder(address).build();
    }

    /** A builder starting from the {@code address} value. */
    public static Builder builder(String address) {
        return new Builder(parseAddress(address));
    }

    /**
     * Settings for a validated target: its parsed servers, its auth and TLS keys and where its
     * JetStream requests go.
     */
    public static ConnectionSettings from(TargetConfig target) {
        return new ConnectionSettings(target.servers(), target.username(), target.password(),
                target.token(), target.credentialsFile(), target.nkeySeedFile(), target.tlsCa(),
                target.tlsClientCert(), target.tlsClientKey(), target.tlsRequired(),
                new JetStreamApi(target.jetStreamDomain(), target.jetStreamApiPrefix()));
    }

    /**
     * Turns an {@code address} value into server URLs with the config package's rules
     * ({@link ServerAddress#parse}): {@code host:port} becomes {@code nats://host:port}; otherwise a
     * comma-separated list of {@code nats://} / {@code tls://} URLs (cluster seeds, port optional).
     *
     * @throws IllegalArgumentException if the address is malformed
     */
    public static List<String> parseAddress(String address) {
        return ServerAddress.parse(address).orElseThrow(() -> new IllegalArgumentException(
                "address must be host:port or a comma-separated list of nats:// or tls:// URLs: " + redact(address)));
    }

    private static void requireUrl(String server) {
        URI uri;
        try {
            uri = new URI(server);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("server is not a valid URL: " + redact(server));
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("nats") && !scheme.equals("tls")) {
            throw new IllegalArgumentException("server must be a nats:// or tls:// URL: " + redact(server));
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("server URL needs a host: " + redact(server));
        }
    }

    /** Whether the connection must use TLS: any TLS key set, or a {@code tls://} server. */
    public boolean tlsEnabled() {
        return tlsRequired || tlsCa.isPresent() || tlsClientCert.isPresent()
                || servers.stream().anyMatch(s -> s.regionMatches(true, 0, "tls://", 0, 6));
    }

    /** The configured TLS files, for {@link TlsMaterialStamp#of}. */
    public List<Path> tlsFiles() {
        return Stream.of(tlsCa, tlsClientCert, tlsClientKey).flatMap(Optional::stream).toList();
    }

    /** The secret values, so that error texts can be checked against them. */
    List<String> secrets() {
        List<String> out = new ArrayList<>();
        password.map(Secret::reveal).ifPresent(out::add);
        token.map(Secret::reveal).ifPresent(out::add);
        servers.stream().map(ConnectionSettings::userInfo).flatMap(Optional::stream).forEach(out::add);
        return out;
    }

    /** The servers as they may be shown: user info in a URL is replaced by {@code ***}. */
    public List<String> displayServers() {
        return servers.stream().map(ConnectionSettings::redact).toList();
    }

    @Override
    public String toString() {
        return "ConnectionSettings[servers=" + displayServers()
                + ", username=" + username.orElse("none")
                + ", password=" + password.map(p -> HIDDEN).orElse("none")
                + ", token=" + token.map(t -> HIDDEN).orElse("none")
                + ", credentialsFile=" + show(credentialsFile)
                + ", nkeySeedFile=" + show(nkeySeedFile)
                + ", tlsCa=" + show(tlsCa)
                + ", tlsClientCert=" + show(tlsClientCert)
                + ", tlsClientKey=" + show(tlsClientKey)
                + ", tlsRequired=" + tlsRequired
                + ", jetStream=" + jetStreamApi.describe() + "]";
    }

    private static String show(Optional<Path> path) {
        return path.map(Path::toString).orElse("none");
    }

    private static Optional<String> userInfo(String server) {
        int scheme = server.indexOf("://");
        int at = server.lastIndexOf('@');
        return scheme >= 0 && at > scheme ? Optional.of(server.substring(scheme + 3, at)) : Optional.empty();
    }

    static String redact(String server) {
        int scheme = server.indexOf("://");
        int at = server.lastIndexOf('@');
        return scheme >= 0 && at > scheme ? server.substring(0, scheme + 3) + HIDDEN + server.substring(at) : server;
    }

    /** Collects the optional keys; {@link #build()} applies the record's checks. */
    public static final class Builder {
        private final List<String> servers;
        private Optional<String> username = Optional.empty();
        private Optional<Secret> password = Optional.empty();
        private Optional<Secret> token = Optional.empty();
        private Optional<Path> credentialsFile = Optional.empty();
        private Optional<Path> nkeySeedFile = Optional.empty();
        private Optional<Path> tlsCa = Optional.empty();
        private Optional<Path> tlsClientCert = Optional.empty();
        private Optional<Path> tlsClientKey = Optional.empty();
        private boolean tlsRequired;
        private JetStreamApi jetStreamApi = JetStreamApi.DEFAULT;

        private Builder(List<String> servers) {
            this.servers = servers;
        }

        /** User/password auth. */
        public Builder userPassword(String user, String pass) {
            this.username = Optional.of(user);
            this.password = Optional.of(new Secret(pass));
            return this;
        }

        /** Token auth. */
        public Builder token(String value) {
            this.token = Optional.of(new Secret(value));
            return this;
        }

        /** {@code .creds} file auth. */
        public Builder credentialsFile(Path file) {
            this.credentialsFile = Optional.of(file);
            return this;
        }

        /** NKey user auth with the seed in this file. */
        public Builder nkeySeedFile(Path file) {
            this.nkeySeedFile = Optional.of(file);
            return this;
        }

        /** Send JetStream requests to this domain or prefix. */
        public Builder jetStreamApi(JetStreamApi api) {
            this.jetStreamApi = Objects.requireNonNull(api, "api");
            return this;
        }

        /** Trust this PEM CA bundle. */
        public Builder tlsCa(Path file) {
            this.tlsCa = Optional.of(file);
            return this;
        }

        /** Present this client certificate and PKCS#8 key. */
        public Builder tlsClient(Path cert, Path key) {
            this.tlsClientCert = Optional.of(cert);
            this.tlsClientKey = Optional.of(key);
            return this;
        }

        /** Require TLS (trusting the JDK default CAs unless {@link #tlsCa} is set). */
        public Builder tlsRequired(boolean required) {
            this.tlsRequired = required;
            return this;
        }

        /** The settings; throws {@link IllegalArgumentException} for a forbidden combination. */
        public ConnectionSettings build() {
            return new ConnectionSettings(servers, username, password, token, credentialsFile, nkeySeedFile, tlsCa,
                    tlsClientCert, tlsClientKey, tlsRequired, jetStreamApi);
        }
    }
}

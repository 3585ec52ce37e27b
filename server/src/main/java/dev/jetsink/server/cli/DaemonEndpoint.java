package dev.jetsink.server.cli;

import dev.jetsink.internal.config.JetsinkConfig;
import dev.jetsink.internal.nats.PemTls;
import dev.jetsink.internal.nats.TlsMaterialException;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import picocli.CommandLine.Option;

/**
 * How an operator command reaches the running daemon's HTTP port (a picocli mixin): {@code --url},
 * or else the address the configuration gives the daemon, over https when the daemon serves TLS.
 * A daemon bound to every address (0.0.0.0 or ::) is dialled on loopback (127.0.0.1 or ::1). For
 * TLS it takes PEM files as curl does: {@code --cacert} to trust the daemon's certificate
 * (default: the JVM's trusted CAs), {@code --cert} and {@code --key} for a daemon that requires
 * client certificates. The host name in the URL must match the daemon's certificate.
 */
final class DaemonEndpoint {
    /* The key store of --cert/--key lives in this process only, but needs some password. */
    private static final char[] STORE_PASSWORD = "jetsink-cli".toCharArray();

    @Option(names = "--url", paramLabel = "URL",
        description = "the daemon's base URL (default: JETSINK_HTTP_ADDRESS, https when JETSINK_HTTP_TLS_CERT is set;"
            + " 0.0.0.0 and :: are dialled on loopback)")
    Optional<String> url = Optional.empty();
    @Option(names = "--cacert", paramLabel = "FILE",
        description = "PEM CA certificates to trust the daemon's TLS certificate by (default: the JVM's trusted CAs)")
    Optional<Path> caCert = Optional.empty();
    @Option(names = "--cert", paramLabel = "FILE",
        description = "PEM client certificate, for a daemon that requires one (JETSINK_HTTP_TLS_CLIENT_CA); with --key")
    Optional<Path> cert = Optional.empty();
    @Option(names = "--key", paramLabel = "FILE", description = "PEM (PKCS#8) private key of --cert")
    Optional<Path> key = Optional.empty();

    /** Whether {@code --url} names the daemon. */
    boolean urlGiven() {
        return url.isPresent();
    }

    /** The base URL without a trailing slash: {@code --url}, or the configured daemon's. */
    String base(Supplier<JetsinkConfig> config) {
        String base = url.orElseGet(() -> {
            JetsinkConfig c = config.get();
            return (c.daemon().http().tls().isPresent() ? "https://" : "http://") + dialable(c.daemon().httpAddress());
        });
        return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    }

    /**
     * The address to dial for a listen address: an any-address bind is dialled on loopback of the
     * same family ({@code 0.0.0.0:9020} to {@code 127.0.0.1:9020}, {@code [::]:9020} to
     * {@code [::1]:9020}); an IPv6 host gets the brackets a URL needs.
     */
    static String dialable(String listenAddress) {
        int colon = listenAddress.lastIndexOf(':');
        String host = listenAddress.substring(0, colon);
        String port = listenAddress.substring(colon + 1);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.isEmpty() || host.equals("0.0.0.0")) {
            host = "127.0.0.1";
        } else if (host.equals("::") || host.equals("::0") || host.equals("0:0:0:0:0:0:0:0")) {
            host = "::1";
        }
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * A client for the daemon, with the TLS material of the options.
     *
     * @throws IllegalArgumentException naming the option whose file is missing or not PEM
     */
    HttpClient client() {
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
        if (cert.isPresent() != key.isPresent()) {
            throw new IllegalArgumentException("--cert and --key must be given together");
        }
        if (caCert.isPresent() || cert.isPresent()) {
            b.sslContext(sslContext());
        }
        return b.build();
    }

    private SSLContext sslContext() {
        try {
            TrustManagerFactory trust = null;
            if (caCert.isPresent()) {
                trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trust.init(material("--cacert", () -> PemTls.trustStore(caCert.get())));
            }
            KeyManagerFactory keys = null;
            if (cert.isPresent()) {
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(material("--cert/--key", () -> PemTls.identityStore(cert.get(), key.get(), STORE_PASSWORD)),
                    STORE_PASSWORD);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), trust == null ? null : trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK cannot create a TLS context", e);
        }
    }

    /* Why a request got no answer, for a person: the exception's kind, and for TLS its reason. */
    static String why(java.io.IOException e) {
        String name = e.getClass().getSimpleName();
        return e instanceof javax.net.ssl.SSLException && e.getMessage() != null ? name + ": " + e.getMessage() : name;
    }

    private interface StoreLoader {
        KeyStore load() throws TlsMaterialException;
    }

    private static KeyStore material(String option, StoreLoader loader) {
        try {
            return loader.load();
        } catch (TlsMaterialException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
        }
    }
}

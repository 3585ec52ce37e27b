package dev.jetsink.server.http;

import dev.jetsink.internal.config.HttpSettings;
import dev.jetsink.internal.nats.PemTls;
import dev.jetsink.internal.nats.TlsMaterialException;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TLS on the HTTP port from PEM files ({@code JETSINK_HTTP_TLS_*}): TLS 1.2 and 1.3 only, client
 * certificates required and verified against {@code JETSINK_HTTP_TLS_CLIENT_CA} when it is set.
 * The certificate and key files are checked every {@link #CHECK_EVERY} and re-read when they
 * change, so a rotation by cert-manager or certbot reaches new connections without a restart; a
 * new pair that does not load (half-written, mismatched) is logged and the one in use is kept.
 */
public final class HttpTls {

    private static final Logger log = LoggerFactory.getLogger(HttpTls.class);
    static final Duration CHECK_EVERY = Duration.ofSeconds(2);
    private static final char[] PASSWORD = "jetsink-http".toCharArray();

    private final HttpSettings.Tls files;
    private final SslContextFactory.Server factory;
    private String loaded;
    private String refused = "";
    /** When the certificate being served expires: follows each reload, not a refused file. */
    private volatile Instant notAfter;

    private HttpTls(HttpSettings.Tls files, SslContextFactory.Server factory, String loaded, Instant notAfter) {
        this.files = files;
        this.factory = factory;
        this.loaded = loaded;
        this.notAfter = notAfter;
    }

    /** Reads the files now; a problem with them fails the daemon's start, naming the file. */
    static HttpTls load(HttpSettings.Tls files) throws TlsMaterialException {
        SslContextFactory.Server factory = new SslContextFactory.Server();
        KeyStore identity = PemTls.identityStore(files.certificate(), files.key(), PASSWORD);
        factory.setKeyStore(identity);
        factory.setKeyStorePassword(new String(PASSWORD));
        factory.setIncludeProtocols("TLSv1.3", "TLSv1.2");
        // Clients dial by IP as often as by name; the certificate's names are the client's business.
        factory.setSniRequired(false);
        factory.setEndpointIdentificationAlgorithm(null);
        if (files.clientCa().isPresent()) {
            factory.setTrustStore(PemTls.trustStore(files.clientCa().get()));
            factory.setNeedClientAuth(true);
        }
        return new HttpTls(files, factory, fingerprint(files), notAfter(identity));
    }

    SslContextFactory.Server factory() {
        return factory;
    }

    /** Starts checking the files for a rotation on {@code scheduler}. */
    void watch(Scheduler scheduler) {
        try {
            scheduler.schedule(() -> {
                try {
                    check();
                } finally {
                    watch(scheduler);
                }
            }, CHECK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // the server is stopping: nothing left to serve a new certificate to
        }
    }

    /** Re-reads the pair if either file changed since the last load. */
    synchronized void check() {
        String now = fingerprint(files);
        if (now.equals(loaded) || now.equals(refused)) {
            return;
        }
        KeyStore store;
        try {
            store = PemTls.identityStore(files.certificate(), files.key(), PASSWORD);
        } catch (TlsMaterialException e) {
            refused = now;
            log.warn("http tls certificate changed but does not load, still serving the previous one error=\"{}\"",
                e.getMessage());
            return;
        }
        try {
            factory.reload(f -> f.setKeyStore(store));
        } catch (Exception e) {
            refused = now;
            log.warn("http tls certificate reload failed, still serving the previous one error=\"{}\"", e.toString());
            return;
        }
        loaded = now;
        refused = "";
        notAfter = notAfter(store);
        log.info("http tls certificate reloaded file={} {}", files.certificate(), describe(store));
    }

    /** When the certificate now served expires. */
    Instant notAfter() {
        return notAfter;
    }

    /** {@code jetsink_http_tls_certificate_expiry_seconds}: seconds until {@link #notAfter}, negative after. */
    void bindExpiry(MeterRegistry registry, Clock clock) {
        Gauge.builder("jetsink_http_tls_certificate_expiry_seconds", this,
                t -> (t.notAfter().toEpochMilli() - clock.millis()) / 1000.0)
            .description("seconds until the HTTP TLS certificate being served expires, negative after")
            .register(registry);
    }

    private static Instant notAfter(KeyStore store) {
        try {
            return ((X509Certificate) store.getCertificate("identity")).getNotAfter().toInstant();
        } catch (KeyStoreException e) {
            throw new IllegalStateException("the identity store was built in this process", e);
        }
    }

    private static String describe(KeyStore store) {
        try {
            X509Certificate cert = (X509Certificate) store.getCertificate("identity");
            return "serial=" + cert.getSerialNumber().toString(16) + " not_after=" + cert.getNotAfter().toInstant();
        } catch (KeyStoreException e) {
            return "";
        }
    }

    // A digest of both files' bytes: any rewrite, rename-into-place or symlink swap changes it.
    private static String fingerprint(HttpSettings.Tls files) {
        try {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            for (Path p : List.of(files.certificate(), files.key())) {
                try {
                    sha.update(Files.readAllBytes(p));
                } catch (IOException e) {
                    sha.update((byte) 0);
                }
            }
            return java.util.HexFormat.of().formatHex(sha.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}

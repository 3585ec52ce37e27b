package dev.jetsink.internal.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The daemon's HTTP server limits and TLS ({@code JETSINK_HTTP_*}, DESIGN.md "Daemon").
 *
 * @param idleTimeout    a connection with no bytes in either direction for this long is closed
 * @param requestTimeout a request's headers and body must all arrive within this
 * @param maxConnections connections served at once; beyond it new ones wait to be accepted
 * @param maxHeaderBytes the request line and headers together; more is answered 431
 * @param tls            TLS on the HTTP port, when configured
 */
public record HttpSettings(Duration idleTimeout, Duration requestTimeout, int maxConnections, int maxHeaderBytes,
                           Optional<Tls> tls) {

    public HttpSettings {
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(tls, "tls");
    }

    /** The defaults of the key table: 30 s, 30 s, 4096 connections, 16 KiB of headers, no TLS. */
    public static HttpSettings defaults() {
        return new HttpSettings(Duration.ofSeconds(30), Duration.ofSeconds(30), 4096, 16_384, Optional.empty());
    }

    /**
     * The server's certificate chain and key (PEM), and the CA that client certificates must
     * chain to when clients must present one.
     */
    public record Tls(Path certificate, Path key, Optional<Path> clientCa) {
        public Tls {
            Objects.requireNonNull(certificate, "certificate");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(clientCa, "clientCa");
        }
    }
}

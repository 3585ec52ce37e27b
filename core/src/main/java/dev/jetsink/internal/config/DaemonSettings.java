package dev.jetsink.internal.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The daemon's {@code JETSINK_*} settings.
 *
 * @param httpAddress  {@code host:port} the HTTP server binds, default {@code 127.0.0.1:9020}
 * @param adminToken   bearer token of the admin API; empty means the admin API is disabled
 * @param ingestToken  bearer token required on ingest when present
 * @param dataDir      where runtime-applied targets are persisted
 * @param logFormat    text or JSON log lines
 * @param backoffScale multiplier of the retry sleeps, 1 outside tests and drills
 * @param http         limits and TLS of the HTTP server
 */
public record DaemonSettings(String httpAddress, Optional<Secret> adminToken, Optional<Secret> ingestToken,
                             Optional<Path> dataDir, LogFormat logFormat, double backoffScale, HttpSettings http) {

    /** Log line format. */
    public enum LogFormat { TEXT, JSON }

    public DaemonSettings {
        Objects.requireNonNull(httpAddress, "httpAddress");
        Objects.requireNonNull(logFormat, "logFormat");
        Objects.requireNonNull(http, "http");
    }

    /** The settings with nothing set. */
    public static DaemonSettings defaults() {
        return new DaemonSettings("127.0.0.1:9020", Optional.empty(), Optional.empty(), Optional.empty(),
            LogFormat.TEXT, 1.0, HttpSettings.defaults());
    }
}

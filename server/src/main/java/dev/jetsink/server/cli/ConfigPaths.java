package dev.jetsink.server.cli;

import dev.jetsink.ConfigProblem;
import dev.jetsink.internal.config.ConfigKey;
import dev.jetsink.internal.config.DaemonSettings;
import dev.jetsink.internal.config.JetsinkConfig;
import dev.jetsink.internal.config.Secret;
import dev.jetsink.internal.config.TargetConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Every path a configuration makes the daemon write or read, checked through one
 * {@link PathAccess}: the config file itself (the packaged unit runs {@code serve --config} as its
 * own user), each target's queue directory, its TLS, CA, credentials and seed files, the
 * HTTP port's certificate, key and client CA, and each secret read from a file path. A secret
 * named {@code credential:NAME} is not checked: systemd reads it at start and hands the unit a
 * copy its user can read.
 */
final class ConfigPaths {
    private ConfigPaths() {
    }

    /** Each path {@code access}'s user could not use, as an error naming the variable that set it. */
    static List<ConfigProblem> problems(Optional<Path> configFile, JetsinkConfig config, PathAccess access) {
        List<ConfigProblem> out = new ArrayList<>();
        configFile.ifPresent(f -> read(out, access, "config file", "--config", "config", f));
        for (TargetConfig t : config.targets()) {
            String suffix = t.id().equals(TargetConfig.DEFAULT_ID) ? "" : t.id().toUpperCase(Locale.ROOT);
            t.queuePath().ifPresent(q -> {
                String variable = ConfigKey.QUEUE_DIR.variable(t.kind(), suffix);
                access.queueDirProblem(q).ifPresent(p -> out.add(ConfigProblem.value(t.displayId(), variable, p)));
                access.outsideUnitState(q).ifPresent(p -> out.add(ConfigProblem.value(t.displayId(), variable, p)));
            });
            file(out, access, t, ConfigKey.CREDENTIALS_FILE, suffix, t.credentialsFile());
            file(out, access, t, ConfigKey.NKEY_SEED_FILE, suffix, t.nkeySeedFile());
            file(out, access, t, ConfigKey.TLS_CA, suffix, t.tlsCa());
            file(out, access, t, ConfigKey.TLS_CLIENT_CERT, suffix, t.tlsClientCert());
            file(out, access, t, ConfigKey.TLS_CLIENT_KEY, suffix, t.tlsClientKey());
            secret(out, access, t.displayId(), t.password());
            secret(out, access, t.displayId(), t.token());
        }
        DaemonSettings d = config.daemon();
        d.http().tls().ifPresent(tls -> {
            read(out, access, "daemon", "JETSINK_HTTP_TLS_CERT", "certificate", tls.certificate());
            read(out, access, "daemon", "JETSINK_HTTP_TLS_KEY", "key", tls.key());
            tls.clientCa().ifPresent(ca -> read(out, access, "daemon", "JETSINK_HTTP_TLS_CLIENT_CA", "client CA", ca));
        });
        secret(out, access, "daemon", d.adminToken());
        secret(out, access, "daemon", d.ingestToken());
        return out;
    }

    private static void file(List<ConfigProblem> out, PathAccess access, TargetConfig t, ConfigKey key, String suffix,
                             Optional<Path> path) {
        path.ifPresent(p -> read(out, access, t.displayId(), key.variable(t.kind(), suffix),
            key.name().toLowerCase(Locale.ROOT), p));
    }

    // The source reads X_FILE=/path or X_FILE=credential:NAME (Secret#source).
    private static void secret(List<ConfigProblem> out, PathAccess access, String target, Optional<Secret> secret) {
        secret.flatMap(Secret::source).filter(s -> s.contains("=/")).ifPresent(s -> {
            int eq = s.indexOf('=');
            read(out, access, target, s.substring(0, eq), "secret", Path.of(s.substring(eq + 1)));
        });
    }

    private static void read(List<ConfigProblem> out, PathAccess access, String target, String variable, String term,
                             Path file) {
        access.unreadable(file).ifPresent(p -> out.add(ConfigProblem.value(target, variable, term + " file " + p)));
    }
}

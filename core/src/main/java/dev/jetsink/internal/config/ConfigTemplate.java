package dev.jetsink.internal.config;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The commented environment file shipped as {@code etc/jetsink.env} (DESIGN.md "Packaging"): every global
 * setting and every target key of both kinds, with its default and one line of meaning. It is
 * generated from {@link GlobalSetting} and {@link ConfigKey}; the switches below are exhaustive,
 * so a key added without a description does not compile. Every {@code #NAME=value} line is a
 * valid setting once uncommented; keys without a variable are described but have no such line.
 */
public final class ConfigTemplate {

    private ConfigTemplate() {
    }

    static String describe(GlobalSetting s) {
        return switch (s) {
            case NOTIFY_ENABLE -> "master switch for notify targets (off disables them all; unset: each target decides)";
            case AUDIT_ENABLE -> "master switch for audit targets (off disables them all; unset: each target decides)";
            case NOTIFY_TARGET_STREAM_CONCURRENCY -> "notify targets that may have publishes in flight at once";
            case HTTP_ADDRESS -> "host:port the HTTP port (webhooks, admin, /health, /metrics) listens on";
            case ADMIN_TOKEN -> "bearer token for the admin API; unset disables it (secret, never logged)";
            case INGEST_TOKEN -> "token webhook senders must present; unset accepts any sender (secret)";
            case DATA_DIR -> "directory for targets added through the admin API, kept across restarts";
            case LOG_FORMAT -> "log lines as text or json";
            case BACKOFF_SCALE -> "multiplies the 4/8/16/32 s retry backoff (tests and drills only)";
            case HTTP_IDLE_TIMEOUT_SECS -> "an idle keep-alive connection is closed after this many seconds";
            case HTTP_REQUEST_TIMEOUT_SECS -> "headers and body must arrive within this many seconds (else 408)";
            case HTTP_MAX_CONNECTIONS -> "open HTTP connections at most; at the cap a new one replaces the longest-idle one";
            case HTTP_MAX_HEADER_BYTES -> "largest request header block in bytes (431 above)";
            case HTTP_TLS_CERT -> "PEM certificate (chain) for HTTPS; re-read when it changes";
            case HTTP_TLS_KEY -> "PEM private key for HTTP_TLS_CERT";
            case HTTP_TLS_CLIENT_CA -> "PEM CA bundle: clients must present a certificate it signed";
        };
    }

    static String describe(ConfigKey k) {
        return switch (k) {
            case ENABLE -> "turns this target on";
            case ADDRESS -> "NATS servers: host:port or comma-separated nats:// / tls:// URLs, no credentials";
            case SUBJECT -> "publish subject; may hold {bucket} {event} {key_prefix:N} {api} {target} placeholders";
            case USERNAME -> "NATS user (with PASSWORD)";
            case PASSWORD -> "NATS password (secret, never logged)";
            case TOKEN -> "NATS token (secret, never logged)";
            case CREDENTIALS_FILE -> "NATS .creds file (JWT and NKey seed), absolute path";
            case NKEY_SEED_FILE -> "file holding an NKey user seed (SU...) for a server's nkey users, absolute path;"
                + " only one of USERNAME, TOKEN, CREDENTIALS_FILE, NKEY_SEED_FILE";
            case TLS_CA -> "PEM CA bundle to verify the NATS servers";
            case TLS_CLIENT_CERT -> "PEM client certificate for NATS servers that verify clients";
            case TLS_CLIENT_KEY -> "PEM key for TLS_CLIENT_CERT";
            case TLS_REQUIRED -> "refuse to connect without TLS";
            case QUEUE_DIR -> "root of the durable queue (required for JetStream; needed to lose nothing)";
            case QUEUE_LIMIT -> "events the queue holds before senders get 503";
            case JETSTREAM_ENABLE -> "publish to a JetStream stream and wait for its ack (else NATS Core)";
            case JETSTREAM_STREAM_NAME -> "the stream; it must exist (jetsink stream-plan creates a valid one)";
            case JETSTREAM_ACK_TIMEOUT_SECS -> "seconds a publish waits for the stream's ack, 10 to 120";
            case FAILED_MAX_RECORDS -> "failed records kept (JetStream targets), 100 to 1000000; the oldest go first";
            case FAILED_MAX_AGE_HOURS -> "hours a failed record is kept, 1 to 2160 (90 days)";
            case JETSTREAM_DOMAIN -> "JetStream domain to reach, e.g. the hub's when connecting to a leaf node"
                + " (not with JETSTREAM_API_PREFIX)";
            case JETSTREAM_API_PREFIX -> "JetStream API subject prefix, e.g. $JS.hub.API or an imported one"
                + " (not with JETSTREAM_DOMAIN)";
            case COMMENT -> "free text shown by check-config and the admin API";
            case PUBLISH_WINDOW -> "publishes awaiting an ack at once, 1 to 4096";
            case MSG_ID -> "Nats-Msg-Id from the event's content (re-sends stored once) or random";
            case FORMAT -> "message form: envelope, aws (notify), cloudevents-binary or cloudevents-structured";
            case ORDER -> "order: none (default) or key: each object's events are stored in the order jetsink accepted"
                + " them (docs/OPERATIONS.md \"Order per object\")";
        };
    }

    /** The whole file, every setting commented out. */
    public static String render() {
        return render(Map.of());
    }

    /**
     * The file the packages install: as {@link #render()}, but with the settings that keep state
     * set, uncommented, to places under {@code stateDir} (the unit's {@code StateDirectory=}), so
     * that targets applied through the admin API and queued events survive a restart:
     * {@code JETSINK_DATA_DIR=<stateDir>/data} and each kind's {@code QUEUE_DIR=<stateDir>} (its
     * targets' queues are subdirectories named after kind and id). Each kind's {@code ENABLE} is set
     * to {@code off} beside it, as a key of a kind with no {@code ENABLE} set is reported unused.
     *
     * @param stateDir absolute directory the daemon may write
     * @return the file's text
     */
    public static String renderForStateDirectory(Path stateDir) {
        Map<String, String> set = new LinkedHashMap<>();
        set.put(GlobalSetting.DATA_DIR.variable(), stateDir.resolve("data").toString());
        for (TargetKind kind : TargetKind.values()) {
            set.put(kind.envPrefix() + ConfigKey.ENABLE.name(), "off");
            set.put(kind.envPrefix() + ConfigKey.QUEUE_DIR.name(), stateDir.toString());
        }
        return render(set);
    }

    private static String render(Map<String, String> set) {
        StringBuilder b = new StringBuilder();
        b.append("# jetsink configuration: one VARIABLE=value per line (systemd EnvironmentFile syntax).\n");
        b.append(set.isEmpty() ? "# Every setting is listed, commented out, with its default; uncomment what you change.\n"
            : "# Every setting is listed with its default; those that keep state are set, the others are\n"
            + "# commented out: uncomment what you change.\n");
        b.append("# Check the result with: jetsink check-config\n");
        b.append("# Reference: /usr/share/doc/jetsink/OPERATIONS.md (or docs/OPERATIONS.md).\n");
        b.append("# Secrets (PASSWORD, TOKEN, JETSINK_ADMIN_TOKEN, JETSINK_INGEST_TOKEN) can come from a file:\n");
        b.append("# <VARIABLE>_FILE=/absolute/path, or <VARIABLE>_FILE=credential:NAME for a systemd credential\n");
        b.append("# the unit loads with LoadCredential=NAME:/etc/jetsink/secrets/NAME (OPERATIONS.md section 14), e.g.\n");
        b.append("#   RUSTFS_NOTIFY_NATS_TOKEN_FILE=credential:notify-token\n\n");
        b.append("## Daemon\n");
        for (GlobalSetting s : GlobalSetting.values()) {
            line(b, s.variable(), s.defaultValue(), describe(s), set);
        }
        for (TargetKind kind : TargetKind.values()) {
            b.append("\n## ").append(kind.label()).append(" targets: ").append(kind.envPrefix()).append("<KEY>")
                .append(" for the default target, ").append(kind.envPrefix()).append("<KEY>_<ID> for more\n");
            for (ConfigKey k : ConfigKey.values()) {
                if (k.hasEnvForm()) {
                    line(b, kind.envPrefix() + k.name(), k.defaultValue(), describe(k), set);
                } else {
                    // no NAME= line: uncommented, it would be an unknown key and stop the daemon
                    b.append("# ").append(k.keyName()).append(": ").append(describe(k))
                        .append(" (admin API only: it has no variable)\n");
                }
            }
        }
        return b.toString();
    }

    private static void line(StringBuilder b, String variable, Optional<String> defaultValue, String meaning,
                             Map<String, String> set) {
        b.append("# ").append(meaning).append('\n');
        if (set.containsKey(variable)) {
            b.append(variable).append('=').append(set.get(variable)).append('\n');
        } else {
            b.append("#").append(variable).append('=').append(defaultValue.orElse("")).append('\n');
        }
    }
}

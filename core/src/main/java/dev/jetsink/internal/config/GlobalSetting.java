package dev.jetsink.internal.config;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Settings that are not per target: the kind-wide switches, notify stream concurrency and
 * the daemon's {@code JETSINK_*} settings, declared once like {@link ConfigKey}.
 */
enum GlobalSetting {
    NOTIFY_ENABLE("RUSTFS_NOTIFY_ENABLE", null, false, ValueRule.BOOLEAN),
    AUDIT_ENABLE("RUSTFS_AUDIT_ENABLE", null, false, ValueRule.BOOLEAN),
    NOTIFY_TARGET_STREAM_CONCURRENCY("RUSTFS_NOTIFY_TARGET_STREAM_CONCURRENCY", "20", false,
        ValueRule.intRange(1, Integer.MAX_VALUE, " must be a positive whole number")),
    HTTP_ADDRESS("JETSINK_HTTP_ADDRESS", "127.0.0.1:9020", false, GlobalSetting::listenAddress),
    ADMIN_TOKEN("JETSINK_ADMIN_TOKEN", null, true, ValueRule.TEXT),
    INGEST_TOKEN("JETSINK_INGEST_TOKEN", null, true, ValueRule.TEXT),
    DATA_DIR("JETSINK_DATA_DIR", null, false, ValueRule.ABSOLUTE_PATH),
    LOG_FORMAT("JETSINK_LOG_FORMAT", "text", false, (key, value) ->
        value.equals("text") || value.equals("json") ? Optional.empty()
            : Optional.of(key + " must be text or json: " + value)),
    BACKOFF_SCALE("JETSINK_BACKOFF_SCALE", "1", false, GlobalSetting::positiveDecimal),
    HTTP_IDLE_TIMEOUT_SECS("JETSINK_HTTP_IDLE_TIMEOUT_SECS", "30", false, ValueRule.intRange(1, 86_400,
        " must be a whole number of seconds from 1 to 86400")),
    HTTP_REQUEST_TIMEOUT_SECS("JETSINK_HTTP_REQUEST_TIMEOUT_SECS", "30", false, ValueRule.intRange(1, 86_400,
        " must be a whole number of seconds from 1 to 86400")),
    HTTP_MAX_CONNECTIONS("JETSINK_HTTP_MAX_CONNECTIONS", "4096", false, ValueRule.intRange(1, 1_000_000,
        " must be a whole number from 1 to 1000000")),
    HTTP_MAX_HEADER_BYTES("JETSINK_HTTP_MAX_HEADER_BYTES", "16384", false, ValueRule.intRange(1024, 1 << 20,
        " must be a whole number of bytes from 1024 to 1048576")),
    HTTP_TLS_CERT("JETSINK_HTTP_TLS_CERT", null, false, ValueRule.ABSOLUTE_PATH),
    HTTP_TLS_KEY("JETSINK_HTTP_TLS_KEY", null, false, ValueRule.ABSOLUTE_PATH),
    HTTP_TLS_CLIENT_CA("JETSINK_HTTP_TLS_CLIENT_CA", null, false, ValueRule.ABSOLUTE_PATH);

    /** Prefix of the daemon's own variables, all of which must be known. */
    public static final String DAEMON_PREFIX = "JETSINK_";

    /**
     * {@code JETSINK_} variables that jetsink's own tools read and the daemon does not, so an
     * exported one is not an unknown key: {@code JETSINK_PURGE_STATE} asks the Debian package's
     * postrm to delete the queues on purge.
     */
    static final List<String> TOOL_VARIABLES = List.of("JETSINK_PURGE_STATE");

    private final String variable;
    private final String defaultValue;
    private final boolean secret;
    private final ValueRule rule;

    GlobalSetting(String variable, String defaultValue, boolean secret, ValueRule rule) {
        this.variable = variable;
        this.defaultValue = defaultValue;
        this.secret = secret;
        this.rule = rule;
    }

    /** The environment variable, e.g. {@code JETSINK_HTTP_ADDRESS}. */
    public String variable() {
        return variable;
    }

    /**
     * The default, empty when the setting is absent by default; the kind-wide switches have none
     * because they default to whether a target of the kind is enabled.
     */
    public Optional<String> defaultValue() {
        return Optional.ofNullable(defaultValue);
    }

    /** Whether the value is a secret, printed as {@code ***}. */
    public boolean isSecret() {
        return secret;
    }

    /** The check on the value; messages name the variable. */
    public ValueRule rule() {
        return rule;
    }

    /** Every {@code JETSINK_*} variable name, for unknown-key suggestions. */
    static List<String> daemonVariables() {
        return Arrays.stream(values()).map(GlobalSetting::variable).filter(v -> v.startsWith(DAEMON_PREFIX)).toList();
    }

    private static Optional<String> positiveDecimal(String key, String value) {
        try {
            return new BigDecimal(value.trim()).signum() > 0 ? Optional.empty()
                : Optional.of(key + " must be a positive number: " + value);
        } catch (NumberFormatException e) {
            return Optional.of(key + " must be a positive number: " + value);
        }
    }

    // Port 0 is allowed: tests bind an ephemeral port and read it back.
    private static Optional<String> listenAddress(String key, String value) {
        int colon = value.lastIndexOf(':');
        if (colon > 0) {
            try {
                int port = Integer.parseInt(value.substring(colon + 1));
                if (port >= 0 && port <= 65535) {
                    return Optional.empty();
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        return Optional.of(key + " must be host:port: " + value);
    }
}

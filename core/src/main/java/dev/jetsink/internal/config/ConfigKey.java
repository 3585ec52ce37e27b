package dev.jetsink.internal.config;

import dev.jetsink.MsgIdMode;
import dev.jetsink.OrderMode;
import dev.jetsink.PayloadFormat;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The keys of a NATS target, declared once: parsing, validation, {@code check-config},
 * unknown-key detection and the builder's wording of problems all read this table.
 */
public enum ConfigKey {
    ENABLE("off", true, false, null, ValueRule.BOOLEAN),
    ADDRESS(null, true, false, "servers", ValueRule.ADDRESS),
    SUBJECT(null, true, false, "subject", ValueRule.SUBJECT),
    USERNAME(null, true, false, "userPassword", ValueRule.TEXT),
    PASSWORD(null, true, true, "userPassword", ValueRule.TEXT),
    TOKEN(null, true, true, "token", ValueRule.TEXT),
    CREDENTIALS_FILE(null, true, false, "credentialsFile", ValueRule.ABSOLUTE_PATH),
    NKEY_SEED_FILE(null, true, false, "nkeySeedFile", ValueRule.ABSOLUTE_PATH),
    TLS_CA(null, true, false, "tlsCa", ValueRule.ABSOLUTE_PATH),
    TLS_CLIENT_CERT(null, true, false, "tlsClientCertificate", ValueRule.ABSOLUTE_PATH),
    TLS_CLIENT_KEY(null, true, false, "tlsClientCertificate", ValueRule.ABSOLUTE_PATH),
    TLS_REQUIRED("off", true, false, "tlsCa", ValueRule.BOOLEAN),
    QUEUE_DIR(null, true, false, "queueDir", ValueRule.ABSOLUTE_PATH),
    QUEUE_LIMIT(Long.toString(TargetSettings.DEFAULT_QUEUE_LIMIT), true, false, "queueLimit",
        ValueRule.atLeast(1)),
    JETSTREAM_ENABLE("off", true, false, "jetStream", ValueRule.BOOLEAN),
    JETSTREAM_STREAM_NAME(null, true, false, "jetStream", ValueRule.STREAM_NAME),
    JETSTREAM_ACK_TIMEOUT_SECS("30", true, false, "ackTimeout",
        ValueRule.intRange(10, 120, " must be between 10 and 120 seconds")),
    JETSTREAM_DOMAIN(null, true, false, "jetStreamDomain", ValueRule.JETSTREAM_DOMAIN),
    JETSTREAM_API_PREFIX(null, true, false, "jetStreamApiPrefix", ValueRule.JETSTREAM_API_PREFIX),
    COMMENT(null, false, false, null, ValueRule.TEXT),
    PUBLISH_WINDOW("1024", true, false, "publishWindow",
        ValueRule.intRange(1, 4096, " must be between 1 and 4096")),
    MSG_ID("content", true, false, "msgIds", (key, value) -> MsgIdMode.parse(value).isPresent() ? Optional.empty()
        : Optional.of(key + " must be content or random: " + value)),
    FORMAT("envelope", true, false, "format", (key, value) -> PayloadFormat.parse(value).isPresent() ? Optional.empty()
        : Optional.of(key + " must be envelope, aws, cloudevents-binary or cloudevents-structured: " + value)),
    ORDER("none", true, false, "order", (key, value) -> OrderMode.parse(value).isPresent() ? Optional.empty()
        : Optional.of(key + " must be none or key: " + value)),
    FAILED_MAX_RECORDS(Integer.toString(TargetSettings.DEFAULT_FAILED_MAX_RECORDS), true, false, "failedMaxRecords",
        ValueRule.intRange(100, 1_000_000, " must be a whole number of records from 100 to 1000000")),
    FAILED_MAX_AGE_HOURS(Long.toString(TargetSettings.DEFAULT_FAILED_MAX_AGE.toHours()), true, false, "failedMaxAge",
        ValueRule.intRange(1, 2160, " must be a whole number of hours from 1 to 2160 (90 days)"));

    private static final List<ConfigKey> LONGEST_FIRST = Arrays.stream(values())
        .sorted(Comparator.comparingInt((ConfigKey k) -> k.name().length()).reversed())
        .toList();

    private final String defaultValue;
    private final boolean hasEnvForm;
    private final boolean secret;
    private final String builderMethod;
    private final ValueRule rule;

    ConfigKey(String defaultValue, boolean hasEnvForm, boolean secret, String builderMethod, ValueRule rule) {
        this.defaultValue = defaultValue;
        this.hasEnvForm = hasEnvForm;
        this.secret = secret;
        this.builderMethod = builderMethod;
        this.rule = rule;
    }

    /** Lower snake name used in config keys and admin {@code key_values}, e.g. {@code queue_dir}. */
    public String keyName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The value used when the key is not set, empty for keys without default. */
    public Optional<String> defaultValue() {
        return Optional.ofNullable(defaultValue);
    }

    /** Whether the key can be set by environment variable ({@code comment} cannot). */
    public boolean hasEnvForm() {
        return hasEnvForm;
    }

    /** Whether the value is a secret, printed as {@code ***}. */
    public boolean isSecret() {
        return secret;
    }

    /**
     * The {@code SinkBuilder} method that sets the key, e.g. {@code queueDir}; empty for the keys
     * the builder does not expose ({@code enable}, {@code comment}).
     */
    public Optional<String> builderMethod() {
        return Optional.ofNullable(builderMethod);
    }

    /**
     * The check of the key's own value in its written form; the first argument is how the message
     * names the key ({@code queue_dir}, {@code queueDir(...)}).
     */
    public ValueRule rule() {
        return rule;
    }

    /** Variable of this key for instance {@code suffix} (empty suffix = unsuffixed). */
    public String variable(TargetKind kind, String suffix) {
        String base = kind.variable(keyName());
        return suffix.isEmpty() ? base : base + "_" + suffix;
    }

    /** Keys ordered longest name first, the order suffixed variable names are matched in. */
    public static List<ConfigKey> longestFirst() {
        return LONGEST_FIRST;
    }

    /** The key whose {@link #keyName()} is {@code keyName}. */
    public static Optional<ConfigKey> fromKeyName(String keyName) {
        for (ConfigKey k : values()) {
            if (k.keyName().equals(keyName)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }
}

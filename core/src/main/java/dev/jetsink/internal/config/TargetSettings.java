package dev.jetsink.internal.config;

import dev.jetsink.MsgIdMode;
import dev.jetsink.OrderMode;
import dev.jetsink.PayloadFormat;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * One target's settings as typed values, not yet validated: what both readers produce (the
 * daemon's keys through {@link TargetInput#read()}, the library's {@code SinkBuilder} through its
 * setters) and what {@link TargetValidator} checks. Every key has an {@link Origin}, so a problem
 * is reported in the terms of whoever gave the value. Unset keys hold the key table's default.
 *
 * @param kind            notify or audit
 * @param id              instance id, lower-cased
 * @param enabled         the {@code enable} key
 * @param servers         server addresses as given, empty when unset
 * @param subject         publish subject or template
 * @param username        user for user/password auth
 * @param password        password for user/password auth
 * @param token           token auth
 * @param credentialsFile NATS {@code .creds} file
 * @param nkeySeedFile    file holding an NKey user seed
 * @param tlsCa           PEM CA bundle
 * @param tlsClientCert   PEM client certificate
 * @param tlsClientKey    PKCS#8 client key
 * @param tlsRequired     require TLS even without TLS files
 * @param queueDir        queue root
 * @param queueLimit      max live queue entries
 * @param jetStream       whether the JetStream path is on
 * @param streamName      stream to publish to
 * @param ackTimeout      per-attempt deadline
 * @param jetStreamDomain JetStream domain to reach the stream in
 * @param jetStreamApiPrefix JetStream API subject prefix, instead of a domain
 * @param comment         free text
 * @param publishWindow   JetStream publishes in flight
 * @param msgIds          how msg ids are made
 * @param format          what the messages look like on NATS
 * @param order           which order the target promises: none or per object (key)
 * @param failedMaxRecords records the failed store keeps at most (JetStream targets)
 * @param failedMaxAge    age at which maintenance deletes a failed record
 * @param origins         where each key's value came from, for every key
 */
public record TargetSettings(
    TargetKind kind, String id, boolean enabled,
    List<String> servers, Optional<String> subject,
    Optional<String> username, Optional<Secret> password, Optional<Secret> token,
    Optional<Path> credentialsFile, Optional<Path> nkeySeedFile, Optional<Path> tlsCa, Optional<Path> tlsClientCert, Optional<Path> tlsClientKey,
    boolean tlsRequired, Optional<Path> queueDir, long queueLimit,
    boolean jetStream, Optional<String> streamName, Duration ackTimeout,
    Optional<String> jetStreamDomain, Optional<String> jetStreamApiPrefix, Optional<String> comment, int publishWindow, MsgIdMode msgIds, PayloadFormat format,
    OrderMode order, int failedMaxRecords, Duration failedMaxAge,
    Map<ConfigKey, Origin> origins) {

    /** The bound on live queue entries when {@code queue_limit} is not set. */
    public static final long DEFAULT_QUEUE_LIMIT = 100_000;
    /** Failed records a target keeps when {@code failed_max_records} is not set. */
    public static final int DEFAULT_FAILED_MAX_RECORDS = 10_000;
    /** How long a failed record is kept when {@code failed_max_age_hours} is not set. */
    public static final Duration DEFAULT_FAILED_MAX_AGE = Duration.ofHours(72);

    public TargetSettings {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(id, "id");
        servers = List.copyOf(servers);
        Objects.requireNonNull(ackTimeout, "ackTimeout");
        Objects.requireNonNull(msgIds, "msgIds");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(order, "order");
        Objects.requireNonNull(failedMaxAge, "failedMaxAge");
        origins = Map.copyOf(origins);
        if (!origins.keySet().containsAll(Set.of(ConfigKey.values()))) {
            throw new IllegalArgumentException("every key needs an origin");
        }
    }

    /** Where {@code key}'s value came from, or would have come from when unset. */
    public Origin origin(ConfigKey key) {
        return origins.get(key);
    }

    /** {@code notify primary:nats}. */
    public String displayId() {
        return kind.label() + " " + id + ":nats";
    }

    /**
     * How a source names a key: {@code variable} is what a problem is filed under (a daemon
     * variable, an admin key name or a builder method), {@code term} is how its message calls the
     * key ({@code queue_dir} for the daemon's keys, {@code queueDir(...)} for the builder).
     *
     * @param variable the name a problem is reported under
     * @param term     the key's name inside a message
     */
    public record Origin(String variable, String term) {
        public Origin {
            Objects.requireNonNull(variable, "variable");
            Objects.requireNonNull(term, "term");
        }

        /** A daemon variable (or admin key name) that sets {@code key}. */
        public static Origin variable(String name, ConfigKey key) {
            return new Origin(name, key.keyName());
        }

        /** The builder method that sets {@code key}, e.g. {@code queueDir(...)}. */
        public static Origin method(ConfigKey key) {
            String method = key.builderMethod().orElseThrow(() ->
                new IllegalArgumentException(key + " has no builder method")) + "(...)";
            return new Origin(method, method);
        }

        /** Names each key by its builder method, and a key the builder lacks by {@code kind}'s variable. */
        public static Function<ConfigKey, Origin> methods(TargetKind kind) {
            return key -> key.builderMethod().isPresent() ? method(key) : variable(key.variable(kind, ""), key);
        }
    }

    /** A builder for {@code kind}'s target {@code id}; unset keys are named by {@code unset}. */
    public static Builder builder(TargetKind kind, String id, Function<ConfigKey, Origin> unset) {
        return new Builder(kind, id, unset);
    }

    /** Records typed values, each with its origin; no checks here, they are the validator's. */
    public static final class Builder {
        private final TargetKind kind;
        private final String id;
        private Function<ConfigKey, Origin> unset;
        private final Map<ConfigKey, Object> values = new EnumMap<>(ConfigKey.class);
        private final Map<ConfigKey, Origin> origins = new EnumMap<>(ConfigKey.class);

        private Builder(TargetKind kind, String id, Function<ConfigKey, Origin> unset) {
            this.kind = Objects.requireNonNull(kind, "kind");
            this.id = Objects.requireNonNull(id, "id");
            this.unset = Objects.requireNonNull(unset, "unset");
        }

        /** notify or audit. */
        public TargetKind kind() {
            return kind;
        }

        /** Whether {@code key} was given a value. */
        public boolean has(ConfigKey key) {
            return values.containsKey(key);
        }

        /** The keys given a value. */
        public Set<ConfigKey> keys() {
            return Set.copyOf(values.keySet());
        }

        /**
         * Lays {@code over}'s values over these, and names the keys neither set the way
         * {@code over} names them: a caller's own values win over what it read elsewhere.
         */
        public Builder overlay(Builder over) {
            values.putAll(over.values);
            origins.putAll(over.origins);
            unset = over.unset;
            return this;
        }

        public Builder enabled(boolean on, Origin origin) {
            return put(ConfigKey.ENABLE, on, origin);
        }

        public Builder servers(List<String> addresses, Origin origin) {
            return put(ConfigKey.ADDRESS, List.copyOf(addresses), origin);
        }

        public Builder subject(String subject, Origin origin) {
            return put(ConfigKey.SUBJECT, subject, origin);
        }

        public Builder username(String user, Origin origin) {
            return put(ConfigKey.USERNAME, user, origin);
        }

        public Builder password(Secret password, Origin origin) {
            return put(ConfigKey.PASSWORD, password, origin);
        }

        public Builder token(Secret token, Origin origin) {
            return put(ConfigKey.TOKEN, token, origin);
        }

        public Builder credentialsFile(Path file, Origin origin) {
            return put(ConfigKey.CREDENTIALS_FILE, file, origin);
        }

        public Builder nkeySeedFile(Path file, Origin origin) {
            return put(ConfigKey.NKEY_SEED_FILE, file, origin);
        }

        public Builder tlsCa(Path caPem, Origin origin) {
            return put(ConfigKey.TLS_CA, caPem, origin);
        }

        public Builder tlsClientCert(Path certPem, Origin origin) {
            return put(ConfigKey.TLS_CLIENT_CERT, certPem, origin);
        }

        public Builder tlsClientKey(Path keyPem, Origin origin) {
            return put(ConfigKey.TLS_CLIENT_KEY, keyPem, origin);
        }

        public Builder tlsRequired(boolean on, Origin origin) {
            return put(ConfigKey.TLS_REQUIRED, on, origin);
        }

        public Builder queueDir(Path dir, Origin origin) {
            return put(ConfigKey.QUEUE_DIR, dir, origin);
        }

        public Builder queueLimit(long events, Origin origin) {
            return put(ConfigKey.QUEUE_LIMIT, events, origin);
        }

        public Builder jetStream(boolean on, Origin origin) {
            return put(ConfigKey.JETSTREAM_ENABLE, on, origin);
        }

        public Builder streamName(String stream, Origin origin) {
            return put(ConfigKey.JETSTREAM_STREAM_NAME, stream, origin);
        }

        public Builder ackTimeout(Duration timeout, Origin origin) {
            return put(ConfigKey.JETSTREAM_ACK_TIMEOUT_SECS, timeout, origin);
        }

        public Builder jetStreamDomain(String domain, Origin origin) {
            return put(ConfigKey.JETSTREAM_DOMAIN, domain, origin);
        }

        public Builder jetStreamApiPrefix(String prefix, Origin origin) {
            return put(ConfigKey.JETSTREAM_API_PREFIX, prefix, origin);
        }

        public Builder comment(String comment, Origin origin) {
            return put(ConfigKey.COMMENT, comment, origin);
        }

        public Builder publishWindow(int publishes, Origin origin) {
            return put(ConfigKey.PUBLISH_WINDOW, publishes, origin);
        }

        public Builder failedMaxRecords(int records, Origin origin) {
            return put(ConfigKey.FAILED_MAX_RECORDS, records, origin);
        }

        public Builder failedMaxAge(Duration age, Origin origin) {
            return put(ConfigKey.FAILED_MAX_AGE_HOURS, age, origin);
        }

        public Builder msgIds(MsgIdMode mode, Origin origin) {
            return put(ConfigKey.MSG_ID, mode, origin);
        }

        public Builder format(PayloadFormat format, Origin origin) {
            return put(ConfigKey.FORMAT, format, origin);
        }

        public Builder order(OrderMode mode, Origin origin) {
            return put(ConfigKey.ORDER, mode, origin);
        }

        /** For the key reader, which has a value of {@code key}'s type in hand. */
        Builder put(ConfigKey key, Object value, Origin origin) {
            values.put(key, Objects.requireNonNull(value, "value"));
            origins.put(key, Objects.requireNonNull(origin, "origin"));
            return this;
        }

        /** The settings; an unset key holds the key table's default, read like any other value. */
        public TargetSettings build() {
            Map<ConfigKey, Origin> named = new EnumMap<>(ConfigKey.class);
            for (ConfigKey key : ConfigKey.values()) {
                named.put(key, origins.containsKey(key) ? origins.get(key) : unset.apply(key));
            }
            return new TargetSettings(kind, id, get(ConfigKey.ENABLE, Boolean.class),
                optional(ConfigKey.ADDRESS, List.class).map(l -> ((List<?>) l).stream().map(String::valueOf).toList())
                    .orElse(List.of()),
                optional(ConfigKey.SUBJECT, String.class),
                optional(ConfigKey.USERNAME, String.class), optional(ConfigKey.PASSWORD, Secret.class),
                optional(ConfigKey.TOKEN, Secret.class),
                optional(ConfigKey.CREDENTIALS_FILE, Path.class), optional(ConfigKey.NKEY_SEED_FILE, Path.class),
                optional(ConfigKey.TLS_CA, Path.class),
                optional(ConfigKey.TLS_CLIENT_CERT, Path.class), optional(ConfigKey.TLS_CLIENT_KEY, Path.class),
                get(ConfigKey.TLS_REQUIRED, Boolean.class),
                optional(ConfigKey.QUEUE_DIR, Path.class), get(ConfigKey.QUEUE_LIMIT, Long.class),
                get(ConfigKey.JETSTREAM_ENABLE, Boolean.class), optional(ConfigKey.JETSTREAM_STREAM_NAME, String.class),
                get(ConfigKey.JETSTREAM_ACK_TIMEOUT_SECS, Duration.class),
                optional(ConfigKey.JETSTREAM_DOMAIN, String.class), optional(ConfigKey.JETSTREAM_API_PREFIX, String.class),
                optional(ConfigKey.COMMENT, String.class), get(ConfigKey.PUBLISH_WINDOW, Integer.class),
                get(ConfigKey.MSG_ID, MsgIdMode.class), get(ConfigKey.FORMAT, PayloadFormat.class),
                get(ConfigKey.ORDER, OrderMode.class),
                get(ConfigKey.FAILED_MAX_RECORDS, Integer.class), get(ConfigKey.FAILED_MAX_AGE_HOURS, Duration.class), named);
        }

        private <T> Optional<T> optional(ConfigKey key, Class<T> type) {
            return Optional.ofNullable(values.get(key)).map(type::cast);
        }

        private <T> T get(ConfigKey key, Class<T> type) {
            return optional(key, type).orElseGet(() -> type.cast(TargetInput.parse(key,
                key.defaultValue().orElseThrow(() -> new IllegalStateException(key + " has no default")))));
        }
    }
}

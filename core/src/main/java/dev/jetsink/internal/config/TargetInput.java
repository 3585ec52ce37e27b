package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import dev.jetsink.MsgIdMode;
import dev.jetsink.OrderMode;
import dev.jetsink.PayloadFormat;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The raw values of one target instance, whatever their source (environment, config file or admin
 * {@code key_values}), with the names to report problems under; {@link #read()} turns them into
 * {@link TargetSettings}, the daemon's one reader of its keys.
 *
 * @param kind   notify or audit
 * @param id     instance id, lower-cased
 * @param values each set key with the variable it came from (possibly an inherited unsuffixed one)
 * @param suffix upper-case instance suffix of the variables, empty for the default instance, or
 *               {@code null}-free marker {@link #ADMIN} when keys are named by lower-case key name
 */
record TargetInput(TargetKind kind, String id, Map<ConfigKey, RawValue> values, String suffix) {

    /** Suffix marker of the admin path, where problems are named by key name ({@code queue_dir}). */
    public static final String ADMIN = "<admin>";

    /**
     * A value as written, and the variable (or key name) that set it; {@code file} is the
     * {@code X_FILE=/path} setting a secret was read from ({@link SecretFiles}).
     */
    public record RawValue(String variable, String value, Optional<String> file) {
        public RawValue {
            Objects.requireNonNull(variable, "variable");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(file, "file");
        }

        public RawValue(String variable, String value) {
            this(variable, value, Optional.empty());
        }
    }

    public TargetInput {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(id, "id");
        values = Map.copyOf(values);
        Objects.requireNonNull(suffix, "suffix");
    }

    /** The value of {@code key} if set. */
    public Optional<String> value(ConfigKey key) {
        return Optional.ofNullable(values.get(key)).map(RawValue::value);
    }

    /** The name a problem with {@code key} is reported under. */
    public String variableOf(ConfigKey key) {
        RawValue raw = values.get(key);
        if (raw != null) {
            return raw.variable();
        }
        return suffix.equals(ADMIN) ? key.keyName() : key.variable(kind, suffix);
    }

    /** {@code notify primary:nats}. */
    public String displayId() {
        return kind.label() + " " + id + ":nats";
    }

    /**
     * What {@link #read()} made of the values.
     *
     * @param settings the typed values, named by the variables that set them; a value that does
     *                 not read is left unset
     * @param errors   values that do not read, e.g. {@code Invalid tls_required boolean value: tru}
     * @param warnings values read in their documented fallback ({@code queue_limit 0} is the default)
     */
    public record Read(TargetSettings.Builder settings, List<ConfigProblem> errors, List<ConfigProblem> warnings) {
        public Read {
            Objects.requireNonNull(settings, "settings");
            errors = List.copyOf(errors);
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * Reads every value into its type. Only the form is checked here (a boolean spelling, a
     * number, a path); whether a value is acceptable is {@link TargetValidator}'s question, so
     * the builder's values meet the same rules.
     */
    public Read read() {
        List<ConfigProblem> errors = new ArrayList<>();
        List<ConfigProblem> warnings = new ArrayList<>();
        TargetSettings.Builder settings = TargetSettings.builder(kind, id,
            key -> TargetSettings.Origin.variable(variableOf(key), key));
        values.forEach((key, raw) -> {
            TargetSettings.Origin origin = TargetSettings.Origin.variable(raw.variable(), key);
            try {
                Object parsed = parse(key, raw.value());
                settings.put(key, raw.file().isPresent() && parsed instanceof Secret
                    ? Secret.fromFile(raw.value(), raw.file().get()) : parsed, origin);
            } catch (Unreadable e) {
                errors.add(ConfigProblem.value(displayId(), raw.variable(), e.getMessage()));
            }
            if (key == ConfigKey.QUEUE_LIMIT && isZero(raw.value())) {
                warnings.add(ConfigProblem.warning(displayId(), raw.variable(), "queue_limit 0 means the default; using "
                    + TargetSettings.DEFAULT_QUEUE_LIMIT));
            }
        });
        return new Read(settings, errors, warnings);
    }

    /**
     * {@code value} as {@code key}'s type. {@code queue_limit} 0 means the default, as in the origin
     * system; anything but a whole number of at least 0 is unreadable, never a silent default: the
     * daemon would run with a limit the operator did not write.
     *
     * @throws Unreadable naming the key when the value does not have the key's form
     */
    static Object parse(ConfigKey key, String value) {
        String v = value.trim();
        return switch (key) {
            case ENABLE, TLS_REQUIRED, JETSTREAM_ENABLE -> BooleanValue.parse(v)
                .orElseThrow(() -> new Unreadable(BooleanValue.invalid(key.keyName(), v)));
            case ADDRESS -> Arrays.stream(v.split(",", -1)).map(String::trim).toList();
            case SUBJECT, USERNAME, JETSTREAM_STREAM_NAME, JETSTREAM_DOMAIN, JETSTREAM_API_PREFIX, COMMENT -> v;
            case PASSWORD, TOKEN -> new Secret(v);
            case CREDENTIALS_FILE, NKEY_SEED_FILE, TLS_CA, TLS_CLIENT_CERT, TLS_CLIENT_KEY, QUEUE_DIR -> {
                try {
                    yield Path.of(v);
                } catch (InvalidPathException e) {
                    throw new Unreadable(key.keyName() + " is not a valid path: " + v);
                }
            }
            case QUEUE_LIMIT -> queueLimit(v);
            case JETSTREAM_ACK_TIMEOUT_SECS -> Duration.ofSeconds(wholeNumber(key, v));
            case PUBLISH_WINDOW, FAILED_MAX_RECORDS -> wholeNumber(key, v);
            case FAILED_MAX_AGE_HOURS -> Duration.ofHours(wholeNumber(key, v));
            case MSG_ID -> MsgIdMode.parse(v).orElseThrow(() ->
                new Unreadable(key.rule().check(key.keyName(), v).orElseThrow()));
            case FORMAT -> PayloadFormat.parse(v).orElseThrow(() ->
                new Unreadable(key.rule().check(key.keyName(), v).orElseThrow()));
            case ORDER -> OrderMode.parse(v).orElseThrow(() ->
                new Unreadable(key.rule().check(key.keyName(), v).orElseThrow()));
        };
    }

    // Not a number reads as the key's range message: the operator learns the range either way.
    private static int wholeNumber(ConfigKey key, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new Unreadable(key.rule().check(key.keyName(), value).orElseThrow());
        }
    }

    private static long queueLimit(String value) {
        long n;
        try {
            n = Long.parseLong(value);
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 0) {
            throw new Unreadable(ConfigKey.QUEUE_LIMIT.keyName() + " must be a whole number of entries, without"
                + " separators (0 means the default " + TargetSettings.DEFAULT_QUEUE_LIMIT + "): " + value);
        }
        return n == 0 ? TargetSettings.DEFAULT_QUEUE_LIMIT : n;
    }

    private static boolean isZero(String value) {
        try {
            return Long.parseLong(value.trim()) == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** A value without its key's form; the message names the key. */
    static final class Unreadable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unreadable(String message) {
            super(message, null, false, false);
        }
    }
}

package dev.jetsink.internal.config;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The raw values of one target instance, whatever their source (environment, config file or admin
 * {@code key_values}), with the names to report problems under.
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

    /** A value as written, and the variable (or key name) that set it. */
    public record RawValue(String variable, String value) {
        public RawValue {
            Objects.requireNonNull(variable, "variable");
            Objects.requireNonNull(value, "value");
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
}

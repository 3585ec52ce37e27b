package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Splits one kind's variables into target instances: suffixes matched longest key first,
 * the default instance {@code _}, inheritance of unsuffixed values, unknown keys and keys that
 * configure nothing. Notify and audit share this one implementation.
 */
final class TargetVariables {

    /**
     * The instances that exist (their {@code enable} is on) and the problems found on the way.
     *
     * @param instances inputs of enabled instances, default instance first, then by id
     * @param problems  unknown keys, keys configuring nothing, invalid {@code enable} values
     */
    public record Split(List<TargetInput> instances, List<ConfigProblem> problems) {
    }

    private record Instance(String suffix, Map<ConfigKey, TargetInput.RawValue> values) {
    }

    private TargetVariables() {
    }

    /** Splits the variables of {@code kind} found in {@code variables}. */
    public static Split split(TargetKind kind, Map<String, String> variables) {
        return split(kind, variables, Map.of());
    }

    /**
     * Like {@link #split(TargetKind, Map)}, where {@code sources} maps a secret variable read from
     * a file to its {@code X_FILE=/path} setting ({@link SecretFiles}).
     */
    public static Split split(TargetKind kind, Map<String, String> variables, Map<String, String> sources) {
        List<ConfigProblem> problems = new ArrayList<>();
        Map<ConfigKey, TargetInput.RawValue> unsuffixed = new LinkedHashMap<>();
        Map<String, Instance> suffixed = new TreeMap<>();
        new TreeMap<>(variables).forEach((name, value) -> {
            if (!name.startsWith(kind.envPrefix()) || value.isBlank()) {
                // Blank values read as unset, as in a shell that exports VAR= to clear it.
                return;
            }
            String rest = name.substring(kind.envPrefix().length());
            Optional<ConfigKey> key = matchKey(rest);
            if (key.isEmpty()) {
                problems.add(new ConfigProblem(kind.label(), name,
                    KeySuggestion.unknownKeyMessage(name, KeySuggestion.forTargetVariable(kind, name)),
                    ConfigProblem.Category.UNKNOWN_KEY));
                return;
            }
            TargetInput.RawValue raw = new TargetInput.RawValue(name, value.trim(),
                Optional.ofNullable(sources.get(name)));
            String suffix = rest.substring(key.get().name().length());
            if (suffix.isEmpty()) {
                unsuffixed.put(key.get(), raw);
            } else {
                String s = suffix.substring(1);
                suffixed.computeIfAbsent(s.toLowerCase(Locale.ROOT), id -> new Instance(s, new LinkedHashMap<>()))
                    .values().put(key.get(), raw);
            }
        });

        List<TargetInput> instances = new ArrayList<>();
        boolean anyEnableSet = unsuffixed.containsKey(ConfigKey.ENABLE)
            || suffixed.values().stream().anyMatch(i -> i.values().containsKey(ConfigKey.ENABLE));
        if (enabled(kind, TargetConfig.DEFAULT_ID, unsuffixed, problems)) {
            instances.add(new TargetInput(kind, TargetConfig.DEFAULT_ID, unsuffixed, ""));
        } else if (!anyEnableSet) {
            unsuffixed.values().forEach(raw -> problems.add(unused(kind, raw.variable(),
                "no " + kind.label() + " NATS target is enabled (set " + kind.variable("enable")
                    + "=on, or " + kind.variable("enable") + "_<ID>=on)")));
        }
        suffixed.forEach((id, instance) -> {
            if (!instance.values().containsKey(ConfigKey.ENABLE)) {
                String enable = ConfigKey.ENABLE.variable(kind, instance.suffix());
                instance.values().values().forEach(raw -> problems.add(unused(kind, raw.variable(),
                    kind.label() + " NATS target " + id + " is not enabled (set " + enable + "=on)")));
            } else if (enabled(kind, id, instance.values(), problems)) {
                Map<ConfigKey, TargetInput.RawValue> merged = new LinkedHashMap<>(unsuffixed);
                merged.remove(ConfigKey.ENABLE);
                merged.putAll(instance.values());
                instances.add(new TargetInput(kind, id, merged, instance.suffix()));
            }
        });
        return new Split(instances, problems);
    }

    /** The known key {@code rest} starts with (longest first), if the remainder is a valid suffix. */
    static Optional<ConfigKey> matchKey(String rest) {
        for (ConfigKey key : ConfigKey.longestFirst()) {
            if (!key.hasEnvForm()) {
                continue;
            }
            String name = key.name();
            if (rest.equals(name)) {
                return Optional.of(key);
            }
            // A suffix needs an id, and "_" is the default instance's id, not a suffix.
            String suffix = rest.startsWith(name + "_") ? rest.substring(name.length() + 1) : "";
            if (!suffix.isEmpty() && !suffix.equals(TargetConfig.DEFAULT_ID)) {
                return Optional.of(key);
            }
        }
        return Optional.empty();
    }

    private static boolean enabled(TargetKind kind, String id, Map<ConfigKey, TargetInput.RawValue> values,
                                   List<ConfigProblem> problems) {
        TargetInput.RawValue raw = values.get(ConfigKey.ENABLE);
        if (raw == null) {
            return false;
        }
        Optional<Boolean> on = BooleanValue.parse(raw.value());
        if (on.isEmpty()) {
            problems.add(ConfigProblem.value(kind.label() + " " + id + ":nats", raw.variable(),
                BooleanValue.invalid(ConfigKey.ENABLE.keyName(), raw.value())));
        }
        return on.orElse(false);
    }

    private static ConfigProblem unused(TargetKind kind, String variable, String why) {
        return new ConfigProblem(kind.label(), variable, variable + " is set but " + why,
            ConfigProblem.Category.UNUSED_KEY);
    }
}

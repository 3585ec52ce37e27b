package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import dev.jetsink.MsgIdMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Validates one target (DESIGN.md "Configuration") and builds its {@link TargetConfig}. Startup,
 * {@code check-config} and the admin validation path all come through here, so they give the same
 * texts.
 */
public final class TargetValidator {
    private TargetValidator() {
    }

    /**
     * The admin validation path (DESIGN.md "Admin API"): {@code keyValues} uses lower-case key
     * names such as {@code jetstream_enable}; unknown names are errors with a suggestion.
     */
    public static TargetValidation validateKeyValues(TargetKind kind, String id, Map<String, String> keyValues) {
        String lowerId = id.toLowerCase(Locale.ROOT);
        String display = kind.label() + " " + lowerId + ":nats";
        List<ConfigProblem> unknown = new ArrayList<>();
        Map<ConfigKey, TargetInput.RawValue> values = new LinkedHashMap<>();
        List<String> known = Stream.of(ConfigKey.values()).map(ConfigKey::keyName).toList();
        keyValues.forEach((name, value) -> {
            Optional<ConfigKey> key = ConfigKey.fromKeyName(name);
            if (key.isEmpty()) {
                unknown.add(new ConfigProblem(display, name,
                    KeySuggestion.unknownKeyMessage(name, KeySuggestion.nearest(name, known)),
                    ConfigProblem.Category.UNKNOWN_KEY));
            } else if (!value.isBlank()) {
                values.put(key.get(), new TargetInput.RawValue(name, value.trim()));
            }
        });
        TargetValidation result = validate(new TargetInput(kind, lowerId, values, TargetInput.ADMIN));
        if (unknown.isEmpty()) {
            return result;
        }
        List<ConfigProblem> errors = new ArrayList<>(unknown);
        errors.addAll(result.errors());
        return new TargetValidation(Optional.empty(), result.enabled(), errors, result.warnings());
    }

    /** Validates {@code input}: every error at once, and the config when there is none. */
    public static TargetValidation validate(TargetInput input) {
        List<ConfigProblem> errors = new ArrayList<>();
        List<ConfigProblem> warnings = new ArrayList<>();
        String target = input.displayId();
        for (ConfigKey key : ConfigKey.values()) {
            input.value(key).flatMap(v -> key.rule().check(key.keyName(), v))
                .ifPresent(msg -> errors.add(ConfigProblem.value(target, input.variableOf(key), msg)));
        }
        Rules rules = new Rules(input, errors);
        boolean jetstream = rules.bool(ConfigKey.JETSTREAM_ENABLE);
        rules.required(ConfigKey.ADDRESS, ConfigKey.ADDRESS.keyName() + " is required");
        rules.required(ConfigKey.SUBJECT, ConfigKey.SUBJECT.keyName() + " is required");
        input.value(ConfigKey.SUBJECT).filter(v -> ConfigKey.SUBJECT.rule().check(ConfigKey.SUBJECT.keyName(), v).isEmpty())
            .ifPresent(v -> {
                try {
                    SubjectTemplate.parse(ConfigKey.SUBJECT.keyName(), v, input.kind());
                } catch (IllegalArgumentException e) {
                    errors.add(ConfigProblem.value(target, input.variableOf(ConfigKey.SUBJECT), e.getMessage()));
                }
            });
        if (jetstream) {
            rules.required(ConfigKey.JETSTREAM_STREAM_NAME, "jetstream_stream_name is required when jetstream_enable is on");
            rules.required(ConfigKey.QUEUE_DIR, "queue_dir is required when jetstream_enable is on");
        }
        rules.pair(ConfigKey.USERNAME, ConfigKey.PASSWORD);
        rules.pair(ConfigKey.TLS_CLIENT_CERT, ConfigKey.TLS_CLIENT_KEY);
        rules.oneAuthMethod();
        input.value(ConfigKey.QUEUE_LIMIT).filter(QueueLimit::fallsBack).ifPresent(v -> warnings.add(
            ConfigProblem.warning(target, input.variableOf(ConfigKey.QUEUE_LIMIT),
                "queue_limit " + v + " is not a positive whole number; using " + QueueLimit.DEFAULT)));
        for (ConfigKey file : List.of(ConfigKey.CREDENTIALS_FILE, ConfigKey.TLS_CA, ConfigKey.TLS_CLIENT_CERT, ConfigKey.TLS_CLIENT_KEY)) {
            unreadable(input, file).ifPresent(warnings::add);
        }
        boolean enabled = input.value(ConfigKey.ENABLE).flatMap(BooleanValue::parse).orElse(false);
        if (!errors.isEmpty()) {
            return new TargetValidation(Optional.empty(), enabled, errors, warnings);
        }
        return new TargetValidation(Optional.of(build(input, jetstream)), enabled, errors, warnings);
    }

    private static TargetConfig build(TargetInput in, boolean jetstream) {
        return new TargetConfig(
            in.kind(), in.id(),
            ServerAddress.parse(in.value(ConfigKey.ADDRESS).orElseThrow()).orElseThrow(),
            in.value(ConfigKey.SUBJECT).orElseThrow(),
            in.value(ConfigKey.USERNAME),
            in.value(ConfigKey.PASSWORD).map(Secret::new),
            in.value(ConfigKey.TOKEN).map(Secret::new),
            path(in, ConfigKey.CREDENTIALS_FILE), path(in, ConfigKey.TLS_CA),
            path(in, ConfigKey.TLS_CLIENT_CERT), path(in, ConfigKey.TLS_CLIENT_KEY),
            in.value(ConfigKey.TLS_REQUIRED).flatMap(BooleanValue::parse).orElse(false),
            path(in, ConfigKey.QUEUE_DIR),
            QueueLimit.parse(valueOrDefault(in, ConfigKey.QUEUE_LIMIT)),
            jetstream,
            in.value(ConfigKey.JETSTREAM_STREAM_NAME),
            Duration.ofSeconds(Integer.parseInt(valueOrDefault(in, ConfigKey.JETSTREAM_ACK_TIMEOUT_SECS))),
            in.value(ConfigKey.COMMENT),
            Integer.parseInt(valueOrDefault(in, ConfigKey.PUBLISH_WINDOW)),
            MsgIdMode.parse(valueOrDefault(in, ConfigKey.MSG_ID)).orElse(MsgIdMode.CONTENT));
    }

    private static String valueOrDefault(TargetInput in, ConfigKey key) {
        return in.value(key).or(key::defaultValue).orElseThrow().trim();
    }

    private static Optional<Path> path(TargetInput in, ConfigKey key) {
        return in.value(key).map(Path::of);
    }

    // File contents are a connection matter (DESIGN.md "NATS connection"): the target runs and
    // retries, so only warn.
    private static Optional<ConfigProblem> unreadable(TargetInput in, ConfigKey key) {
        return in.value(key)
            .filter(v -> ValueRule.ABSOLUTE_PATH.check(key.keyName(), v).isEmpty())
            .filter(v -> !Files.isReadable(Path.of(v)))
            .map(v -> ConfigProblem.warning(in.displayId(), in.variableOf(key),
                key.keyName() + " file is not readable: " + v));
    }

    /** The rules that look at more than one key. */
    private record Rules(TargetInput in, List<ConfigProblem> errors) {
        boolean bool(ConfigKey key) {
            return in.value(key).flatMap(BooleanValue::parse).orElse(false);
        }

        void required(ConfigKey key, String message) {
            if (in.value(key).isEmpty()) {
                errors.add(ConfigProblem.value(in.displayId(), in.variableOf(key), message));
            }
        }

        void pair(ConfigKey a, ConfigKey b) {
            if (in.value(a).isPresent() != in.value(b).isPresent()) {
                ConfigKey missing = in.value(a).isPresent() ? b : a;
                errors.add(ConfigProblem.value(in.displayId(), in.variableOf(missing),
                    a.keyName() + " and " + b.keyName() + " must be set together"));
            }
        }

        void oneAuthMethod() {
            List<ConfigKey> methods = new ArrayList<>();
            if (in.value(ConfigKey.USERNAME).isPresent() || in.value(ConfigKey.PASSWORD).isPresent()) {
                methods.add(in.value(ConfigKey.USERNAME).isPresent() ? ConfigKey.USERNAME : ConfigKey.PASSWORD);
            }
            Stream.of(ConfigKey.TOKEN, ConfigKey.CREDENTIALS_FILE)
                .filter(k -> in.value(k).isPresent()).forEach(methods::add);
            if (methods.size() > 1) {
                errors.add(ConfigProblem.value(in.displayId(), in.variableOf(methods.get(methods.size() - 1)),
                    "only one auth method may be set (username/password, token or credentials_file)"));
            }
        }
    }
}

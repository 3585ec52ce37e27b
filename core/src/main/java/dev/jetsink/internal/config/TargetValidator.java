package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Validates one target's {@link TargetSettings} (DESIGN.md "Configuration") and builds its
 * {@link TargetConfig}. Startup, {@code check-config}, the admin validation path and the library's
 * {@code SinkBuilder} all come through here, so one rule gives one text, worded in the terms of
 * whoever gave the value.
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

    /** Reads and validates {@code input}: every error at once, and the config when there is none. */
    public static TargetValidation validate(TargetInput input) {
        return validate(input.read());
    }

    /** Validates what a reader read: its errors and warnings come first, then the settings'. */
    static TargetValidation validate(TargetInput.Read read) {
        TargetValidation v = validate(read.settings().build());
        List<ConfigProblem> errors = new ArrayList<>(read.errors());
        errors.addAll(v.errors());
        List<ConfigProblem> warnings = new ArrayList<>(read.warnings());
        warnings.addAll(v.warnings());
        return new TargetValidation(errors.isEmpty() ? v.target() : Optional.empty(), v.enabled(), errors, warnings);
    }

    /**
     * Validates typed {@code settings}, whichever reader made them: every error at once, each in
     * the terms of the value's {@link TargetSettings.Origin}, and the config when there is none.
     */
    public static TargetValidation validate(TargetSettings settings) {
        Rules rules = new Rules(settings, new ArrayList<>(), new ArrayList<>());
        TargetSettings s = settings;
        if (!s.servers().isEmpty()) {
            rules.check(ConfigKey.ADDRESS, String.join(",", s.servers()));
        }
        s.subject().filter(v -> rules.notBlank(ConfigKey.SUBJECT, v) && rules.check(ConfigKey.SUBJECT, v)).ifPresent(v -> {
            try {
                SubjectTemplate.parse(rules.term(ConfigKey.SUBJECT), v, s.kind());
            } catch (IllegalArgumentException e) {
                rules.error(ConfigKey.SUBJECT, e.getMessage());
            }
        });
        s.streamName().filter(v -> rules.notBlank(ConfigKey.JETSTREAM_STREAM_NAME, v))
            .ifPresent(v -> rules.check(ConfigKey.JETSTREAM_STREAM_NAME, v));
        s.jetStreamDomain().filter(v -> rules.notBlank(ConfigKey.JETSTREAM_DOMAIN, v))
            .ifPresent(v -> rules.check(ConfigKey.JETSTREAM_DOMAIN, v));
        s.jetStreamApiPrefix().filter(v -> rules.notBlank(ConfigKey.JETSTREAM_API_PREFIX, v))
            .ifPresent(v -> rules.check(ConfigKey.JETSTREAM_API_PREFIX, v));
        s.username().ifPresent(v -> rules.notBlank(ConfigKey.USERNAME, v));
        s.password().ifPresent(v -> rules.notBlank(ConfigKey.PASSWORD, v.reveal()));
        s.token().ifPresent(v -> rules.notBlank(ConfigKey.TOKEN, v.reveal()));
        for (ConfigKey key : PATHS) {
            rules.path(key).ifPresent(p -> rules.check(key, p.toString()));
        }
        rules.check(ConfigKey.QUEUE_LIMIT, Long.toString(s.queueLimit()));
        if (s.ackTimeout().toNanos() % 1_000_000_000L != 0) {
            rules.error(ConfigKey.JETSTREAM_ACK_TIMEOUT_SECS,
                rules.term(ConfigKey.JETSTREAM_ACK_TIMEOUT_SECS) + " must be whole seconds: " + s.ackTimeout());
        } else {
            rules.check(ConfigKey.JETSTREAM_ACK_TIMEOUT_SECS, Long.toString(s.ackTimeout().toSeconds()));
        }
        rules.check(ConfigKey.PUBLISH_WINDOW, Integer.toString(s.publishWindow()));
        rules.check(ConfigKey.FAILED_MAX_RECORDS, Integer.toString(s.failedMaxRecords()));
        if (s.failedMaxAge().toNanos() % 3_600_000_000_000L != 0) {
            rules.error(ConfigKey.FAILED_MAX_AGE_HOURS,
                rules.term(ConfigKey.FAILED_MAX_AGE_HOURS) + " must be whole hours: " + s.failedMaxAge());
        } else {
            rules.check(ConfigKey.FAILED_MAX_AGE_HOURS, Long.toString(s.failedMaxAge().toHours()));
        }
        rules.required(ConfigKey.ADDRESS, !s.servers().isEmpty(), "");
        rules.required(ConfigKey.SUBJECT, s.subject().isPresent(), "");
        if (s.jetStream()) {
            String when = " when " + rules.term(ConfigKey.JETSTREAM_ENABLE) + " is on";
            rules.required(ConfigKey.JETSTREAM_STREAM_NAME, s.streamName().isPresent(), when);
            rules.required(ConfigKey.QUEUE_DIR, s.queueDir().isPresent(), when);
        }
        if (s.format() == dev.jetsink.PayloadFormat.AWS && s.kind() != TargetKind.NOTIFY) {
            rules.error(ConfigKey.FORMAT, rules.term(ConfigKey.FORMAT) + " aws is the S3 notification document: "
                + "audit targets take envelope, cloudevents-binary or cloudevents-structured");
        }
        rules.pair(ConfigKey.USERNAME, s.username().isPresent(), ConfigKey.PASSWORD, s.password().isPresent());
        rules.pair(ConfigKey.TLS_CLIENT_CERT, s.tlsClientCert().isPresent(),
            ConfigKey.TLS_CLIENT_KEY, s.tlsClientKey().isPresent());
        rules.oneAuthMethod();
        rules.jetStreamApi();
        rules.seedFile();
        for (ConfigKey file : List.of(ConfigKey.CREDENTIALS_FILE, ConfigKey.TLS_CA, ConfigKey.TLS_CLIENT_CERT, ConfigKey.TLS_CLIENT_KEY)) {
            rules.unreadable(file);
        }
        Optional<TargetConfig> config = rules.errors().isEmpty() ? Optional.of(build(s)) : Optional.empty();
        return new TargetValidation(config, s.enabled(), rules.errors(), rules.warnings());
    }

    private static final List<ConfigKey> PATHS = List.of(ConfigKey.CREDENTIALS_FILE, ConfigKey.NKEY_SEED_FILE, ConfigKey.TLS_CA,
        ConfigKey.TLS_CLIENT_CERT, ConfigKey.TLS_CLIENT_KEY, ConfigKey.QUEUE_DIR);

    private static TargetConfig build(TargetSettings s) {
        return new TargetConfig(
            s.kind(), s.id(),
            ServerAddress.parse(String.join(",", s.servers())).orElseThrow(),
            s.subject().orElseThrow(),
            s.username(), s.password(), s.token(),
            s.credentialsFile(), s.nkeySeedFile(), s.tlsCa(), s.tlsClientCert(), s.tlsClientKey(),
            s.tlsRequired(), s.queueDir(), s.queueLimit(),
            s.jetStream(), s.streamName(), s.ackTimeout(), s.jetStreamDomain(), s.jetStreamApiPrefix(), s.comment(), s.publishWindow(), s.msgIds(), s.format(),
            s.order(), s.failedMaxRecords(), s.failedMaxAge(), TargetConfig.displayId(s.kind(), s.id()));
    }

    /** The rules, each filing its problem under the origin of the key at fault. */
    private record Rules(TargetSettings in, List<ConfigProblem> errors, List<ConfigProblem> warnings) {
        String term(ConfigKey key) {
            return in.origin(key).term();
        }

        void error(ConfigKey key, String message) {
            errors.add(ConfigProblem.value(in.displayId(), in.origin(key).variable(), message));
        }

        /** The key's own check of {@code written}; true when it passes. */
        boolean check(ConfigKey key, String written) {
            Optional<String> problem = key.rule().check(term(key), written);
            problem.ifPresent(m -> error(key, m));
            return problem.isEmpty();
        }

        /** True unless {@code value} is blank, which the daemon's keys cannot be (blank reads as unset). */
        boolean notBlank(ConfigKey key, String value) {
            if (value.isBlank()) {
                error(key, term(key) + " must not be empty");
            }
            return !value.isBlank();
        }

        /** The key's path, unless it is the empty path, which is reported: it would mean the working directory. */
        Optional<Path> path(ConfigKey key) {
            Optional<Path> path = pathOf(key);
            if (path.isPresent() && path.get().toString().isEmpty()) {
                error(key, term(key) + " must not be the empty path (it would mean the working directory)");
                return Optional.empty();
            }
            return path;
        }

        private Optional<Path> pathOf(ConfigKey key) {
            return switch (key) {
                case CREDENTIALS_FILE -> in.credentialsFile();
                case NKEY_SEED_FILE -> in.nkeySeedFile();
                case TLS_CA -> in.tlsCa();
                case TLS_CLIENT_CERT -> in.tlsClientCert();
                case TLS_CLIENT_KEY -> in.tlsClientKey();
                case QUEUE_DIR -> in.queueDir();
                default -> throw new IllegalArgumentException(key + " is not a path");
            };
        }

        void required(ConfigKey key, boolean present, String when) {
            if (!present) {
                error(key, term(key) + " is required" + when);
            }
        }

        void pair(ConfigKey a, boolean hasA, ConfigKey b, boolean hasB) {
            if (hasA != hasB) {
                error(hasA ? b : a, term(a) + " and " + term(b) + " must be set together");
            }
        }

        void oneAuthMethod() {
            List<ConfigKey> methods = new ArrayList<>();
            if (in.username().isPresent() || in.password().isPresent()) {
                methods.add(in.username().isPresent() ? ConfigKey.USERNAME : ConfigKey.PASSWORD);
            }
            if (in.token().isPresent()) {
                methods.add(ConfigKey.TOKEN);
            }
            if (in.credentialsFile().isPresent()) {
                methods.add(ConfigKey.CREDENTIALS_FILE);
            }
            if (in.nkeySeedFile().isPresent()) {
                methods.add(ConfigKey.NKEY_SEED_FILE);
            }
            if (methods.size() > 1) {
                String userPassword = term(ConfigKey.USERNAME).equals(term(ConfigKey.PASSWORD))
                    ? term(ConfigKey.USERNAME) : term(ConfigKey.USERNAME) + "/" + term(ConfigKey.PASSWORD);
                error(methods.get(methods.size() - 1), "only one auth method may be set (" + userPassword + ", "
                    + term(ConfigKey.TOKEN) + ", " + term(ConfigKey.CREDENTIALS_FILE) + " or "
                    + term(ConfigKey.NKEY_SEED_FILE) + ")");
            }
        }

        /** A domain and a prefix both name where the JetStream API is; and either needs JetStream on. */
        void jetStreamApi() {
            if (in.jetStreamDomain().isPresent() && in.jetStreamApiPrefix().isPresent()) {
                error(ConfigKey.JETSTREAM_API_PREFIX, term(ConfigKey.JETSTREAM_DOMAIN) + " and "
                    + term(ConfigKey.JETSTREAM_API_PREFIX) + " exclude each other: set one");
            }
            for (ConfigKey key : List.of(ConfigKey.JETSTREAM_DOMAIN, ConfigKey.JETSTREAM_API_PREFIX)) {
                boolean set = key == ConfigKey.JETSTREAM_DOMAIN ? in.jetStreamDomain().isPresent()
                    : in.jetStreamApiPrefix().isPresent();
                if (set && !in.jetStream()) {
                    warnings.add(ConfigProblem.warning(in.displayId(), in.origin(key).variable(), term(key)
                        + " has no effect while " + term(ConfigKey.JETSTREAM_ENABLE) + " is off"));
                }
            }
        }

        // Unlike the creds and TLS files, a seed file is checked whole here and is an error: a seed
        // is small and needs no server to check, so a wrong path or the wrong key is a mistake in
        // the configuration, not a condition that may clear (DESIGN.md "NATS connection").
        void seedFile() {
            pathOf(ConfigKey.NKEY_SEED_FILE).filter(Path::isAbsolute).ifPresent(p ->
                NKeySeedFile.problem(p).ifPresent(problem ->
                    error(ConfigKey.NKEY_SEED_FILE, term(ConfigKey.NKEY_SEED_FILE) + " " + problem)));
        }

        // File contents are a connection matter (DESIGN.md "NATS connection"): the target runs and
        // retries, so the daemon only warns; the category lets check-config fail it.
        void unreadable(ConfigKey key) {
            pathOf(key).filter(p -> p.isAbsolute() && !Files.isReadable(p))
                .ifPresent(p -> warnings.add(new ConfigProblem(in.displayId(), in.origin(key).variable(),
                    term(key) + " file " + (Files.exists(p) ? "is not readable" : "does not exist") + ": " + p
                        + " (the target cannot connect until it is there)",
                    ConfigProblem.Category.MISSING_FILE)));
        }
    }
}

package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The entry point of configuration: merges the config file and the environment (the environment
 * wins), splits both kinds into targets, validates everything and reports every problem at once.
 */
public final class ConfigLoader {
    private ConfigLoader() {
    }

    /** Resolves {@code env} over the optional {@code file}. Never throws for bad input. */
    public static LoadedConfig load(Map<String, String> env, Optional<Path> file) {
        return load(env, file, settings -> { });
    }

    /**
     * Like {@link #load(Map, Optional)}, with {@code overlay} given each target's settings after
     * they are read from the keys and before they are validated: the library's builder lays its
     * own typed values over what an environment map gave.
     */
    public static LoadedConfig load(Map<String, String> env, Optional<Path> file,
                                    Consumer<TargetSettings.Builder> overlay) {
        List<ConfigProblem> errors = new ArrayList<>();
        List<ConfigProblem> warnings = new ArrayList<>();
        Map<String, String> merged = new LinkedHashMap<>();
        file.map(ConfigFile::read).ifPresent(contents -> {
            merged.putAll(contents.variables());
            errors.addAll(contents.problems());
        });
        merged.putAll(env);
        SecretFiles.Resolved secretFiles = SecretFiles.from(env).resolve(merged, ConfigLoader::isSecret);
        errors.addAll(secretFiles.problems());
        merged.clear();
        merged.putAll(secretFiles.variables());
        Map<String, String> sources = secretFiles.sources();

        List<TargetConfig> targets = new ArrayList<>();
        for (TargetKind kind : TargetKind.values()) {
            TargetVariables.Split split = TargetVariables.split(kind, merged, sources);
            errors.addAll(split.problems());
            for (TargetInput input : split.instances()) {
                TargetInput.Read read = input.read();
                overlay.accept(read.settings());
                TargetValidation v = TargetValidator.validate(read);
                errors.addAll(v.errors());
                warnings.addAll(v.warnings());
                v.target().ifPresent(targets::add);
            }
        }
        Globals globals = new Globals(merged, errors);
        unknownDaemonVariables(merged, errors);
        // The daemon runs with these, check-config fails them: both silently lose or double events.
        List<ConfigProblem> checkFailures = new ArrayList<>();
        mistypedPrefixes(merged, checkFailures);
        checkFailures.addAll(DuplicateTargets.find(targets));
        warnings.addAll(checkFailures);
        BigDecimal scale = new BigDecimal(globals.get(GlobalSetting.BACKOFF_SCALE));
        if (scale.compareTo(BigDecimal.ONE) != 0) {
            warnings.add(ConfigProblem.warning("daemon", GlobalSetting.BACKOFF_SCALE.variable(),
                "JETSINK_BACKOFF_SCALE is " + globals.get(GlobalSetting.BACKOFF_SCALE)
                    + ": retry sleeps are scaled (for tests and drills only)"));
        }
        DaemonSettings daemon = new DaemonSettings(
            globals.get(GlobalSetting.HTTP_ADDRESS),
            globals.secret(GlobalSetting.ADMIN_TOKEN, sources),
            globals.secret(GlobalSetting.INGEST_TOKEN, sources),
            globals.optional(GlobalSetting.DATA_DIR).map(Path::of),
            DaemonSettings.LogFormat.valueOf(globals.get(GlobalSetting.LOG_FORMAT).toUpperCase(Locale.ROOT)),
            scale.doubleValue(),
            httpSettings(globals, errors));
        List<String> secrets = secretValues(merged);
        errors.replaceAll(p -> masked(p, secrets));
        warnings.replaceAll(p -> masked(p, secrets));
        checkFailures.replaceAll(p -> masked(p, secrets));
        JetsinkConfig config = new JetsinkConfig(targets,
            globals.kindSwitch(GlobalSetting.NOTIFY_ENABLE, TargetKind.NOTIFY, targets),
            globals.kindSwitch(GlobalSetting.AUDIT_ENABLE, TargetKind.AUDIT, targets),
            Integer.parseInt(globals.get(GlobalSetting.NOTIFY_TARGET_STREAM_CONCURRENCY)),
            daemon, warnings);
        return new LoadedConfig(config, errors, checkFailures);
    }

    private static HttpSettings httpSettings(Globals globals, List<ConfigProblem> errors) {
        Optional<Path> cert = globals.optional(GlobalSetting.HTTP_TLS_CERT).map(Path::of);
        Optional<Path> key = globals.optional(GlobalSetting.HTTP_TLS_KEY).map(Path::of);
        Optional<Path> clientCa = globals.optional(GlobalSetting.HTTP_TLS_CLIENT_CA).map(Path::of);
        if (cert.isPresent() != key.isPresent()) {
            GlobalSetting missing = cert.isPresent() ? GlobalSetting.HTTP_TLS_KEY : GlobalSetting.HTTP_TLS_CERT;
            errors.add(ConfigProblem.value("daemon", missing.variable(),
                "JETSINK_HTTP_TLS_CERT and JETSINK_HTTP_TLS_KEY must be set together"));
        }
        if (clientCa.isPresent() && cert.isEmpty()) {
            errors.add(ConfigProblem.value("daemon", GlobalSetting.HTTP_TLS_CLIENT_CA.variable(),
                "JETSINK_HTTP_TLS_CLIENT_CA needs TLS on the HTTP port (JETSINK_HTTP_TLS_CERT and JETSINK_HTTP_TLS_KEY)"));
        }
        Optional<HttpSettings.Tls> tls = cert.isPresent() && key.isPresent()
            ? Optional.of(new HttpSettings.Tls(cert.get(), key.get(), clientCa)) : Optional.empty();
        return new HttpSettings(
            Duration.ofSeconds(Integer.parseInt(globals.get(GlobalSetting.HTTP_IDLE_TIMEOUT_SECS))),
            Duration.ofSeconds(Integer.parseInt(globals.get(GlobalSetting.HTTP_REQUEST_TIMEOUT_SECS))),
            Integer.parseInt(globals.get(GlobalSetting.HTTP_MAX_CONNECTIONS)),
            Integer.parseInt(globals.get(GlobalSetting.HTTP_MAX_HEADER_BYTES)),
            tls);
    }

    /*
     * The values of password and token variables, which no problem may quote. Messages quote
     * other values, and a value can hold a secret's line: a quote left open in the config file
     * reads the lines after it, a password line among them, into the value (found by
     * ConfigLoaderFuzzTest). Values shorter than four characters are not masked: they would
     * blank out ordinary words of the messages, and are no secret worth the name.
     */
    private static List<String> secretValues(Map<String, String> variables) {
        List<String> out = new ArrayList<>();
        variables.forEach((name, value) -> {
            String v = value.trim();
            if (v.length() >= 4 && isSecret(name)) {
                out.add(v);
            }
        });
        // longest first, so that a secret containing another is masked whole
        out.sort((a, b) -> b.length() - a.length());
        return out;
    }

    private static boolean isSecret(String variable) {
        for (GlobalSetting s : GlobalSetting.values()) {
            if (s.isSecret() && s.variable().equals(variable)) {
                return true;
            }
        }
        for (TargetKind kind : TargetKind.values()) {
            if (variable.startsWith(kind.envPrefix())
                && TargetVariables.matchKey(variable.substring(kind.envPrefix().length())).map(ConfigKey::isSecret)
                    .orElse(false)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A password or token line inside a message: what a value read across lines (an open quote)
     * holds when the secret's own line was swallowed into it and never became a variable.
     */
    private static final Pattern SECRET_LINE = Pattern.compile(secretLinePattern());

    private static String secretLinePattern() {
        List<String> names = new ArrayList<>();
        for (TargetKind kind : TargetKind.values()) {
            for (ConfigKey key : ConfigKey.values()) {
                if (key.isSecret()) {
                    names.add(Pattern.quote(kind.envPrefix() + key.name()) + "(?:_\\w*)?");
                }
            }
        }
        for (GlobalSetting s : GlobalSetting.values()) {
            if (s.isSecret()) {
                names.add(Pattern.quote(s.variable()));
            }
        }
        // X_FILE=/path names a file, and its problems quote the path
        return "((?:" + String.join("|", names) + ")(?<!" + SecretFiles.SUFFIX + ")[ \\t]*=)[^\\r\\n]*";
    }

    private static ConfigProblem masked(ConfigProblem p, List<String> secrets) {
        String message = p.message();
        for (String secret : secrets) {
            message = message.replace(secret, "***");
        }
        message = SECRET_LINE.matcher(message).replaceAll("$1***");
        return message.equals(p.message()) ? p : new ConfigProblem(p.target(), p.variable(), message, p.category());
    }

    // A mistyped JETSINK_ variable would silently drop e.g. the admin token, so it is an error too;
    // the variables of jetsink's own tools (GlobalSetting.TOOL_VARIABLES) are not the daemon's.
    private static void unknownDaemonVariables(Map<String, String> variables, List<ConfigProblem> errors) {
        List<String> known = GlobalSetting.daemonVariables();
        variables.keySet().stream()
            .filter(name -> name.startsWith(GlobalSetting.DAEMON_PREFIX) && !known.contains(name)
                && !GlobalSetting.TOOL_VARIABLES.contains(name))
            .sorted()
            .forEach(name -> errors.add(new ConfigProblem("daemon", name,
                KeySuggestion.unknownKeyMessage(name, KeySuggestion.nearest(name, known)),
                ConfigProblem.Category.UNKNOWN_KEY)));
    }

    /*
     * A variable whose prefix is a typo of one jetsink reads (RUSTFS_AUIDT_NATS_ENABLE) is read by
     * nobody, so the setting silently does not apply. Only a warning for the daemon: the environment
     * is shared with the store and other programs, whose names jetsink cannot know; check-config,
     * run by a person who can rename it, fails it.
     */
    private static void mistypedPrefixes(Map<String, String> variables, List<ConfigProblem> warnings) {
        List<String> prefixes = new ArrayList<>();
        for (TargetKind kind : TargetKind.values()) {
            prefixes.add(kind.envPrefix());
        }
        prefixes.add(GlobalSetting.DAEMON_PREFIX);
        List<String> globals = java.util.Arrays.stream(GlobalSetting.values()).map(GlobalSetting::variable)
            .filter(v -> !v.startsWith(GlobalSetting.DAEMON_PREFIX)).toList();
        variables.keySet().stream().sorted()
            .filter(name -> !globals.contains(name) && !GlobalSetting.TOOL_VARIABLES.contains(name))
            .forEach(name -> KeySuggestion.forMistypedPrefix(name, prefixes)
                .or(() -> KeySuggestion.nearest(name, globals)
                    .filter(g -> KeySuggestion.distance(name, g) <= KeySuggestion.MAX_PREFIX_EDITS))
                .ifPresent(suggestion -> warnings.add(ConfigProblem.warning("global", name,
                    name + " is not a variable jetsink reads, so it has no effect (did you mean " + suggestion + "?)"))));
    }

    /** Global values, each validated once; an invalid value is reported and read as its default. */
    private static final class Globals {
        private final Map<GlobalSetting, String> values = new LinkedHashMap<>();

        Globals(Map<String, String> variables, List<ConfigProblem> errors) {
            for (GlobalSetting s : GlobalSetting.values()) {
                String raw = variables.get(s.variable());
                if (raw == null || raw.isBlank()) {
                    continue;
                }
                String value = raw.trim();
                Optional<String> problem = s.rule().check(s.variable(), value);
                if (problem.isPresent()) {
                    String target = s.variable().startsWith(GlobalSetting.DAEMON_PREFIX) ? "daemon" : "global";
                    errors.add(ConfigProblem.value(target, s.variable(), problem.get()));
                } else {
                    values.put(s, value);
                }
            }
        }

        String get(GlobalSetting s) {
            return optional(s).or(s::defaultValue).orElseThrow();
        }

        /** The kind-wide switch: as set, else on exactly when a target of the kind is enabled (DESIGN.md "Configuration"). */
        boolean kindSwitch(GlobalSetting s, TargetKind kind, List<TargetConfig> targets) {
            return optional(s).flatMap(BooleanValue::parse)
                .orElseGet(() -> targets.stream().anyMatch(t -> t.kind() == kind));
        }

        /** A secret setting, remembering the {@code _FILE} variable it was read from. */
        Optional<Secret> secret(GlobalSetting s, Map<String, String> sources) {
            return optional(s).map(v -> Optional.ofNullable(sources.get(s.variable()))
                .map(source -> Secret.fromFile(v, source)).orElseGet(() -> new Secret(v)));
        }

        Optional<String> optional(GlobalSetting s) {
            return Optional.ofNullable(values.get(s));
        }
    }
}

package dev.jetsink.server.cli;

import dev.jetsink.ConfigProblem;
import dev.jetsink.internal.config.ConfigLoader;
import dev.jetsink.internal.config.LoadedConfig;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/**
 * {@code --target ID [--kind notify|audit] [--config FILE]}: one configured target, read from the
 * environment and config file exactly as {@code serve} reads them, so a command that dials NATS
 * for it uses the target's own servers, auth, TLS and JetStream domain or prefix.
 */
final class TargetSelection {

    @Option(names = "--target", paramLabel = "ID",
        description = "use this configured target's connection (servers, auth, TLS, JetStream domain/prefix); _ is the default instance")
    Optional<String> target = Optional.empty();

    @Option(names = "--kind", paramLabel = "notify|audit", description = "the target's kind, when both kinds have the id")
    Optional<String> kind = Optional.empty();

    @Option(names = "--config", paramLabel = "FILE", description = "config file of NAME=value lines; the environment overrides it")
    Optional<Path> configFile = Optional.empty();

    /** Whether {@code --target} was given. */
    boolean selected() {
        return target.isPresent();
    }

    /**
     * The target named by {@code --target} in the configuration {@code env} and {@code --config} give.
     *
     * @throws IllegalArgumentException with an operator-facing text when the configuration is
     *     invalid or names no such target, or the id is ambiguous without {@code --kind}
     */
    TargetConfig resolve(Map<String, String> env) {
        if (target.isEmpty()) {
            throw new IllegalStateException("no --target given");
        }
        String id = target.get().toLowerCase(Locale.ROOT);
        Optional<TargetKind> wanted = kind.map(TargetSelection::parseKind);
        LoadedConfig loaded = ConfigLoader.load(env, configFile);
        if (!loaded.errors().isEmpty()) {
            throw new IllegalArgumentException("the configuration is invalid (see jetsink check-config):\n  "
                + loaded.errors().stream().map(ConfigProblem::describe).collect(Collectors.joining("\n  ")));
        }
        List<TargetConfig> matches = loaded.config().targets().stream()
            .filter(t -> t.id().equals(id) && wanted.map(k -> k == t.kind()).orElse(true))
            .toList();
        if (matches.isEmpty()) {
            throw new IllegalArgumentException("no enabled " + wanted.map(k -> k.label() + " ").orElse("")
                + "target " + id + " in the configuration; configured: " + loaded.config().targets().stream()
                    .map(TargetConfig::displayId).collect(Collectors.joining(", ")));
        }
        if (matches.size() > 1) {
            throw new IllegalArgumentException("both a notify and an audit target are called " + id
                + ": add --kind notify or --kind audit");
        }
        return matches.get(0);
    }

    private static TargetKind parseKind(String text) {
        try {
            return TargetKind.fromLabel(text.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--kind must be notify or audit, not " + text);
        }
    }
}

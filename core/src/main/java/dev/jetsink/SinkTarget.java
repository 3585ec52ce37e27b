package dev.jetsink;

import dev.jetsink.internal.config.ConfigKey;
import dev.jetsink.internal.config.ConfigLoader;
import dev.jetsink.internal.config.JetsinkConfig;
import dev.jetsink.internal.config.LoadedConfig;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.config.TargetSettings;
import dev.jetsink.internal.queue.DeferredQueue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The one target a {@link SinkBuilder} configures: its environment and setters, validated once. */
final class SinkTarget {

    private SinkTarget() {
    }

    /**
     * The one target, read as jetsink reads its keys (the environment map, if any) with the
     * setters' values laid over it, then validated once. Problems with what the setters gave, or
     * should have given, name the setter.
     */
    static TargetConfig resolve(TargetKind kind, Map<String, String> environment, TargetSettings.Builder settings)
            throws InvalidConfigException {
        Map<String, String> all = new LinkedHashMap<>(environment);
        all.putIfAbsent(kind.globalEnableVariable(), "on");
        all.putIfAbsent(ConfigKey.ENABLE.variable(kind, ""), "on");
        // A setter replaces the key: what the map held for it is neither read nor reported.
        settings.keys().forEach(key -> all.remove(key.variable(kind, "")));
        List<TargetSettings> read = new ArrayList<>();
        LoadedConfig loaded = ConfigLoader.load(all, Optional.empty(), target -> {
            if (target.kind() == kind) {
                target.overlay(settings);
                read.add(target.build());
            }
        });
        List<ConfigProblem> problems = new ArrayList<>(loaded.errors());
        JetsinkConfig config = loaded.config();
        String who = kind.label();
        if (read.isEmpty() || (problems.isEmpty() && !config.kindEnabled(kind))) {
            problems.add(ConfigProblem.value(who, kind.globalEnableVariable(),
                "no " + who + " target is enabled: a sink that would deliver nowhere is refused"));
        } else if (read.size() > 1) {
            problems.add(ConfigProblem.value(who, ConfigKey.ENABLE.variable(kind, ""), read.size() + " " + who
                + " targets are enabled (" + read.stream().map(TargetSettings::displayId).toList()
                + "); a sink delivers to one"));
        } else if (read.get(0).queueDir().isEmpty()) {
            String variable = read.get(0).origin(ConfigKey.QUEUE_DIR).variable();
            if (problems.stream().noneMatch(p -> p.variable().equals(variable))) {
                problems.add(ConfigProblem.value(read.get(0).displayId(), variable,
                    "a sink keeps every event durable before it is sent: set a queue directory (queueDir)"));
            }
        }
        Optional<IOException> unusable = Optional.empty();
        if (problems.isEmpty()) {
            TargetSettings target = read.get(0);
            unusable = config.targets(kind).get(0).queuePath().flatMap(DeferredQueue::unusable);
            unusable.ifPresent(e -> problems.add(ConfigProblem.value(target.displayId(),
                target.origin(ConfigKey.QUEUE_DIR).variable(), "queue directory cannot be used: "
                    + e.getClass().getSimpleName() + ": " + e.getMessage())));
        }
        if (!problems.isEmpty()) {
            InvalidConfigException invalid = new InvalidConfigException(problems);
            unusable.ifPresent(invalid::initCause);
            throw invalid;
        }
        TargetConfig target = config.targets(kind).get(0);
        // "_" is RustFS's name for the target of the unsuffixed keys; a sink has no such context
        return target.id().equals(TargetConfig.DEFAULT_ID) ? target.named(kind.label() + " default:nats") : target;
    }
}

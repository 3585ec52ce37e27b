package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Enabled JetStream targets of one kind that publish to the same stream and subject on the same
 * servers: each event is then stored twice, since a message id carries its target's id and the
 * stream's duplicate window cannot merge the two copies.
 */
final class DuplicateTargets {
    private DuplicateTargets() {
    }

    private record Destination(TargetKind kind, List<String> servers, Optional<String> domain,
                               Optional<String> apiPrefix, String stream, String subject) {
    }

    /** One warning for each target that repeats an earlier target's destination. */
    static List<ConfigProblem> find(List<TargetConfig> targets) {
        Map<Destination, TargetConfig> first = new HashMap<>();
        List<ConfigProblem> warnings = new ArrayList<>();
        for (TargetConfig t : targets) {
            if (!t.jetstreamEnabled() || t.streamName().isEmpty()) {
                continue;
            }
            Destination d = new Destination(t.kind(), t.servers().stream().sorted().toList(), t.jetStreamDomain(),
                t.jetStreamApiPrefix(), t.streamName().get(), t.subject());
            TargetConfig earlier = first.putIfAbsent(d, t);
            if (earlier != null) {
                warnings.add(ConfigProblem.warning(t.displayId(), ConfigKey.ENABLE.variable(t.kind(),
                    t.id().equals(TargetConfig.DEFAULT_ID) ? "" : t.id().toUpperCase(Locale.ROOT)),
                    "publishes to stream " + d.stream() + " subject " + d.subject() + " like " + earlier.displayId()
                        + ": every event is stored twice (each target gives its own message ids)"));
            }
        }
        return warnings;
    }
}

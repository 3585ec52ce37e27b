package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import java.util.List;
import java.util.Objects;

/**
 * The whole resolved configuration: every enabled target of both kinds, the globals, the daemon
 * settings and the warnings found while resolving.
 *
 * @param targets                 enabled targets, notify first, default instance first within a kind
 * @param notifyEnabled           {@code RUSTFS_NOTIFY_ENABLE}; by default on when a notify target is enabled
 * @param auditEnabled            {@code RUSTFS_AUDIT_ENABLE}; by default on when an audit target is enabled
 * @param notifyStreamConcurrency {@code RUSTFS_NOTIFY_TARGET_STREAM_CONCURRENCY}, default 20
 *                                (DESIGN.md "Delivery")
 * @param daemon                  {@code JETSINK_*} settings
 * @param warnings                non-fatal findings (unreadable files, backoff scale, queue limit fallback)
 */
public record JetsinkConfig(List<TargetConfig> targets, boolean notifyEnabled, boolean auditEnabled,
                            int notifyStreamConcurrency, DaemonSettings daemon, List<ConfigProblem> warnings) {
    public JetsinkConfig {
        targets = List.copyOf(targets);
        Objects.requireNonNull(daemon, "daemon");
        warnings = List.copyOf(warnings);
    }

    /** Every configured target of {@code kind}, whether or not the kind-wide switch is on. */
    public List<TargetConfig> targets(TargetKind kind) {
        return targets.stream().filter(t -> t.kind() == kind).toList();
    }

    /** The kind-wide switch: {@code RUSTFS_NOTIFY_ENABLE} or {@code RUSTFS_AUDIT_ENABLE}. */
    public boolean kindEnabled(TargetKind kind) {
        return kind == TargetKind.NOTIFY ? notifyEnabled : auditEnabled;
    }

    /** The targets that should run: those of kinds whose switch is on. */
    public List<TargetConfig> activeTargets() {
        return targets.stream().filter(t -> kindEnabled(t.kind())).toList();
    }
}

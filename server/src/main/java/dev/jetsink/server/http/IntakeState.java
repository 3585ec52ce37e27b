package dev.jetsink.server.http;

import dev.jetsink.internal.config.TargetKind;
import java.util.Objects;
import java.util.Optional;

/**
 * One running target as the probes see it, read from memory: its kind, its display id, and why it
 * would refuse an event now (queue at its limit, queue unavailable, init failed), if it would.
 */
public record IntakeState(TargetKind kind, String target, Optional<String> refusal) {

    public IntakeState {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(refusal, "refusal");
    }

    public boolean accepting() {
        return refusal.isEmpty();
    }
}

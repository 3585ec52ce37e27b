package dev.jetsink.target;

import dev.jetsink.config.JetsinkConfig;
import dev.jetsink.config.TargetKind;
import dev.jetsink.event.AuditEntry;
import dev.jetsink.event.Envelopes;

/** The library entry point for audit log entries: typed entries onto every audit target. */
public final class AuditTargets extends TypedTargets<AuditEntry> {

    private AuditTargets(Targets targets) {
        super(targets, Envelopes::audit);
    }

    public static AuditTargets start(JetsinkConfig config, TargetRuntime runtime) {
        return new AuditTargets(Targets.start(TargetKind.AUDIT, config, runtime));
    }
}

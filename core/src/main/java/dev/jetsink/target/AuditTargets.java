package dev.jetsink.target;

import dev.jetsink.config.JetsinkConfig;
import dev.jetsink.config.TargetKind;
import dev.jetsink.event.Envelopes;
import dev.jetsink.event.AuditEntry;
import java.util.concurrent.CompletableFuture;

/** The library entry point for audit log entries: typed entries onto every audit target. */
public final class AuditTargets implements AutoCloseable {

    private final Targets targets;

    private AuditTargets(Targets targets) {
        this.targets = targets;
    }

    public static AuditTargets start(JetsinkConfig config, TargetRuntime runtime) {
        return new AuditTargets(Targets.start(TargetKind.AUDIT, config, runtime));
    }

    /** Completes when every audit target has durably queued the entry (SPEC §3.1). */
    public CompletableFuture<Void> send(AuditEntry event) {
        return targets.send(Envelopes.audit(event));
    }

    public Targets targets() {
        return targets;
    }

    @Override
    public void close() {
        targets.close();
    }
}

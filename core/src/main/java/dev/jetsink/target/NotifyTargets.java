package dev.jetsink.target;

import dev.jetsink.config.JetsinkConfig;
import dev.jetsink.config.TargetKind;
import dev.jetsink.event.Envelopes;
import dev.jetsink.event.S3EventRecord;
import java.util.concurrent.CompletableFuture;

/** The library entry point for S3 bucket notifications: typed events onto every notify target. */
public final class NotifyTargets implements AutoCloseable {

    private final Targets targets;

    private NotifyTargets(Targets targets) {
        this.targets = targets;
    }

    public static NotifyTargets start(JetsinkConfig config, TargetRuntime runtime) {
        return new NotifyTargets(Targets.start(TargetKind.NOTIFY, config, runtime));
    }

    /** Completes when every notify target has durably queued the event (SPEC §3.1). */
    public CompletableFuture<Void> send(S3EventRecord event) {
        return targets.send(Envelopes.notify(event));
    }

    public Targets targets() {
        return targets;
    }

    @Override
    public void close() {
        targets.close();
    }
}

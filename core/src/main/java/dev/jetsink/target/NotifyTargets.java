package dev.jetsink.target;

import dev.jetsink.config.JetsinkConfig;
import dev.jetsink.config.TargetKind;
import dev.jetsink.event.Envelopes;
import dev.jetsink.event.S3EventRecord;

/** The library entry point for S3 bucket notifications: typed records onto every notify target. */
public final class NotifyTargets extends TypedTargets<S3EventRecord> {

    private NotifyTargets(Targets targets) {
        super(targets, Envelopes::notify);
    }

    public static NotifyTargets start(JetsinkConfig config, TargetRuntime runtime) {
        return new NotifyTargets(Targets.start(TargetKind.NOTIFY, config, runtime));
    }
}

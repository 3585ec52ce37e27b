package dev.jetsink.internal.targets;

import dev.jetsink.internal.event.OutboundEvent;
import java.util.concurrent.CompletableFuture;

/**
 * Puts one event into a target the way the daemon's ingest does, through an all-or-nothing
 * {@link Intake#admit admission}: queued durably, or published directly by a target without a
 * queue dir. Every refusal is in the returned future.
 */
public final class TargetSends {
    private TargetSends() {
    }

    public static CompletableFuture<Void> send(NatsTarget target, OutboundEvent event) {
        try (Intake.Admission admission = target.intake().admit(1)) {
            return admission.append(event);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** To every target of {@code targets}; completes once each has it. */
    public static CompletableFuture<Void> sendAll(Targets targets, OutboundEvent event) {
        return CompletableFuture.allOf(targets.targets().stream().map(t -> send(t, event))
            .toArray(CompletableFuture[]::new));
    }
}

package dev.jetsink.internal.delivery;

import dev.jetsink.internal.nats.Classified;
import dev.jetsink.internal.nats.ConnectFailedException;
import dev.jetsink.internal.publish.OutcomeException;
import dev.jetsink.internal.publish.StreamCheck;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.Outcome;
import dev.jetsink.lifecycle.ResetReason;
import dev.jetsink.lifecycle.StreamVerdict;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns what an attempt reported into the classified failure the dispatcher acts on, applying the
 * verdict rules (DESIGN.md "Delivery", "Stream validation and verdict") that depend on the
 * target's state: which outcomes reset the verdict, when a 10109 is terminal, and when the
 * unexpected-stream warning is logged.
 */
public final class OutcomeHandling {

    private static final Logger log = LoggerFactory.getLogger(OutcomeHandling.class);

    private final DeliveryContext ctx;
    private String capturing = "unknown";

    public OutcomeHandling(DeliveryContext ctx) {
        this.ctx = ctx;
    }

    /** A failure before anything was published: always transient (DESIGN.md "Classification"). */
    Classified classifyPreparation(Exception e) {
        if (e instanceof StreamCheck.StreamValidationFailure) {
            return Classified.validationFailed();
        }
        if (e instanceof ConnectFailedException cf) {
            // At debug: the cycle's exhaustion warning names the error once per cycle.
            log.debug("NATS connection failed target=\"{}\" reason={} error=\"{}\"", ctx.target(),
                cf.reason(), cf.getMessage());
            return cf.reason() == ConnectFailedException.Reason.AUTHENTICATION
                ? Classified.transientOf(Outcome.Cause.AUTHENTICATION_FAILED)
                : Classified.connectFailed();
        }
        Classified c = ctx.classifier().classify(e);
        return c.outcome().isTransient() ? c : Classified.connectFailed();
    }

    /** The outcome of one publish, with its verdict side effects applied. */
    Classified classifyPublish(Throwable failure, PendingEntry entry) {
        if (failure instanceof QueueReadFailure) {
            log.error("queue record unreadable, entry stays queued target=\"{}\" seq={} msg_id={}",
                ctx.target(), entry.seq(), entry.entry().msgId());
            return Classified.onlyThisEntry(Outcome.Cause.UNCLASSIFIED, "queue record unreadable");
        }
        Classified c = failure instanceof OutcomeException oe ? oe.classified() : ctx.classifier().classify(failure);
        Outcome.Cause cause = c.outcome().cause();
        if (cause == Outcome.Cause.STREAM_SEALED) {
            // Terminal only for the first rejection after a cached PASS; the rest of the window
            // then counts as a failed validation (DESIGN.md "Delivery").
            return reset(ResetReason.STREAM_SEALED) ? c : c.asFailedValidation();
        }
        if (c.unexpectedStream()) {
            boolean first = reset(ResetReason.UNEXPECTED_STREAM);
            if (first) {
                // One lookup per PASS period, not one per rejected publish of the window.
                capturing = ctx.capturingStream().get().orElse("unknown");
            }
            c = c.namingCapturingStream(capturing);
            if (first) {
                log.warn("JetStream publish acknowledged by an unexpected stream target=\"{}\" stream={} "
                    + "capturing_stream={} msg_id={}", ctx.target(), ctx.stream(), capturing, entry.entry().msgId());
            } else {
                log.debug("unexpected stream again target=\"{}\" capturing_stream={}", ctx.target(), capturing);
            }
            return c;
        }
        if (c.resetsVerdict()) {
            reset(cause == Outcome.Cause.STREAM_NOT_FOUND
                ? ResetReason.STREAM_NOT_FOUND
                : ResetReason.NO_RESPONDERS);
        }
        return c;
    }

    /** Resets the verdict; true when it was PASS (the first reset of this PASS period). */
    public boolean reset(ResetReason reason) {
        boolean changed = ctx.verdict().reset(reason);
        if (changed) {
            log.info("JetStream stream verdict reset target=\"{}\" reason={}", ctx.target(), reason.label());
            ctx.events().verdictChanged(new LifecycleEvent.VerdictChanged(ctx.target(), StreamVerdict.UNSET,
                Optional.of(reason)));
        }
        return changed;
    }
}

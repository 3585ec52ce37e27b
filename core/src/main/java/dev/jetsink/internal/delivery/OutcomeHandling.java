package dev.jetsink.internal.delivery;

import dev.jetsink.internal.nats.ConnectFailedException;
import dev.jetsink.internal.publish.OutcomeException;
import dev.jetsink.internal.publish.StreamCheck;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.Outcome;
import dev.jetsink.lifecycle.ResetReason;
import dev.jetsink.lifecycle.StreamVerdict;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns what an attempt reported into the outcome the dispatcher acts on, applying the verdict
 * rules (DESIGN.md "Delivery", "Stream validation and verdict") that depend on the target's state:
 * which outcomes reset the verdict, when a 10109 is terminal, and when the unexpected-stream
 * warning is logged.
 */
public final class OutcomeHandling {

    private static final Logger log = LoggerFactory.getLogger(OutcomeHandling.class);

    private final DeliveryContext ctx;
    private String capturing = "unknown";

    public OutcomeHandling(DeliveryContext ctx) {
        this.ctx = ctx;
    }

    /** A failure before anything was published: always transient (DESIGN.md "Classification"). */
    Outcome classifyPreparation(Exception e) {
        if (e instanceof StreamCheck.StreamValidationFailure) {
            return Outcome.validationFailed();
        }
        if (e instanceof ConnectFailedException cf) {
            // At debug: the cycle's exhaustion warning names the error once per cycle.
            log.debug("NATS connection failed target=\"{}\" reason={} error=\"{}\"", ctx.target(),
                cf.reason(), cf.getMessage());
            return cf.reason() == ConnectFailedException.Reason.AUTHENTICATION
                ? Outcome.transientOf(Outcome.Cause.AUTHENTICATION_FAILED)
                : Outcome.connectFailed();
        }
        Outcome o = ctx.classifier().classify(e);
        return o.isTransient() ? o : Outcome.connectFailed();
    }

    /** The outcome of one publish, with its verdict side effects applied. */
    Outcome classifyPublish(Throwable failure, PendingEntry entry) {
        if (failure instanceof QueueReadFailure) {
            log.error("queue record unreadable, entry stays queued target=\"{}\" seq={} msg_id={}",
                ctx.target(), entry.seq(), entry.entry().msgId());
            return new Outcome(Outcome.Family.TRANSIENT, Outcome.Cause.UNCLASSIFIED, "queue record unreadable",
                false, false, true, OptionalInt.empty(), OptionalInt.empty());
        }
        Outcome o = failure instanceof OutcomeException oe ? oe.outcome() : ctx.classifier().classify(failure);
        if (o.cause() == Outcome.Cause.STREAM_SEALED) {
            // Terminal only for the first rejection after a cached PASS; the rest of the window
            // then counts as a failed validation (DESIGN.md "Delivery").
            return reset(ResetReason.STREAM_SEALED) ? o : o.asFailedValidation();
        }
        if (o.unexpectedStream()) {
            boolean first = reset(ResetReason.UNEXPECTED_STREAM);
            if (first) {
                // One lookup per PASS period, not one per rejected publish of the window.
                capturing = ctx.capturingStream().get().orElse("unknown");
            }
            o = o.namingCapturingStream(capturing);
            if (first) {
                log.warn("JetStream publish acknowledged by an unexpected stream target=\"{}\" stream={} "
                    + "capturing_stream={} msg_id={}", ctx.target(), ctx.stream(), capturing, entry.entry().msgId());
            } else {
                log.debug("unexpected stream again target=\"{}\" capturing_stream={}", ctx.target(), capturing);
            }
            return o;
        }
        if (o.resetsVerdict()) {
            reset(o.cause() == Outcome.Cause.STREAM_NOT_FOUND
                ? ResetReason.STREAM_NOT_FOUND
                : ResetReason.NO_RESPONDERS);
        }
        return o;
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

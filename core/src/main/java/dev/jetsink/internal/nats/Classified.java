package dev.jetsink.internal.nats;

import dev.jetsink.lifecycle.Outcome;
import dev.jetsink.lifecycle.Outcome.Cause;
import dev.jetsink.lifecycle.Outcome.Family;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A classified publish failure as the dispatcher acts on it: the {@link Outcome} that listeners,
 * metrics and the failed store receive, plus what the dispatcher must do besides retrying or
 * failing the entry (DESIGN.md "Classification", "Delivery").
 *
 * @param outcome          what listeners see: family, cause, detail and server codes
 * @param resetsVerdict    the stream verdict must go back to UNSET
 * @param unexpectedStream the subject is captured by, or was acknowledged by, another stream
 * @param entrySpecific    only this entry is rescheduled; the target does not enter probe mode
 */
public record Classified(Outcome outcome, boolean resetsVerdict, boolean unexpectedStream, boolean entrySpecific) {

    /** Checks that the outcome is present. */
    public Classified {
        Objects.requireNonNull(outcome, "outcome");
    }

    /** A transient failure with no server code and no flags, its detail the cause's label. */
    public static Classified transientOf(Cause cause) {
        return new Classified(bare(cause, cause.label()), false, false, false);
    }

    /**
     * A transient failure of this entry alone, with {@code detail} as its description: the entry is
     * rescheduled on its own and the target stays out of probe mode.
     */
    public static Classified onlyThisEntry(Cause cause, String detail) {
        return new Classified(bare(cause, detail), false, false, true);
    }

    /** The attempt deadline ran out; built by the dispatcher, which owns the deadline. */
    public static Classified attemptDeadlineExceeded() {
        return transientOf(Cause.ATTEMPT_DEADLINE_EXCEEDED);
    }

    /** A live validation on the publish path failed before publishing: the entry stays. */
    public static Classified validationFailed() {
        return transientOf(Cause.STREAM_VALIDATION_FAILED);
    }

    /** The connection could not be established at all: retried, never classified further. */
    public static Classified connectFailed() {
        return transientOf(Cause.CONNECT_FAILED);
    }

    /**
     * The unexpected-stream case (DESIGN.md "Stream validation and verdict"), naming the stream
     * that captured (or acknowledged) the subject: transient, resets the verdict.
     */
    public static Classified unexpectedStream(String capturingStream) {
        return new Classified(bare(Cause.UNEXPECTED_STREAM, Cause.UNEXPECTED_STREAM.label() + " " + capturingStream),
                true, true, false);
    }

    /**
     * This failure with the capturing stream named in its detail, for a 10060 rejection once the
     * dispatcher has looked the capturing stream up; the flags and codes stay.
     */
    public Classified namingCapturingStream(String capturingStream) {
        Outcome named = new Outcome(outcome.family(), outcome.cause(),
                Cause.UNEXPECTED_STREAM.label() + " " + capturingStream, outcome.apiErrorCode(), outcome.status());
        return new Classified(named, resetsVerdict, unexpectedStream, entrySpecific);
    }

    /**
     * How a 10109 sealed rejection is handled when it is not the first after a cached PASS
     * (DESIGN.md "Delivery"): the verdict was already reset by an earlier rejection, so this one
     * counts as a failed validation and the entry stays queued. The server codes stay; the flags
     * are cleared.
     */
    public Classified asFailedValidation() {
        Outcome failed = new Outcome(Family.TRANSIENT, Cause.STREAM_VALIDATION_FAILED,
                Cause.STREAM_VALIDATION_FAILED.label() + " (" + outcome.cause().label() + ")",
                outcome.apiErrorCode(), outcome.status());
        return new Classified(failed, false, false, false);
    }

    private static Outcome bare(Cause cause, String detail) {
        return new Outcome(Family.TRANSIENT, cause, detail, OptionalInt.empty(), OptionalInt.empty());
    }
}

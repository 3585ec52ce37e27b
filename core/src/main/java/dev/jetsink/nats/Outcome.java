package dev.jetsink.nats;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * A classified publish failure (§7): its family, what it was in the fixed vocabulary, and what the
 * dispatcher must do besides retrying or failing the entry.
 *
 * <p>{@link #detail()} is what gets logged and stored in a failed record; it is built only from
 * {@link Cause} labels, numeric codes and the configured or capturing stream name, never from raw
 * server or exception text.
 *
 * @param family         transient (entry stays queued) or permanent (failed store)
 * @param cause          what happened, from the fixed vocabulary
 * @param detail         the stored and logged description
 * @param resetsVerdict  the stream verdict must go back to UNSET (§6)
 * @param unexpectedStream the subject is now captured by another stream (§5.3)
 * @param entrySpecific  only this entry is rescheduled; the target does not enter probe mode (§5.5)
 * @param apiErrorCode   the JetStream {@code err_code} when the server sent one
 * @param status         the server's HTTP-like status when there was one
 */
public record Outcome(Family family, Cause cause, String detail, boolean resetsVerdict,
                      boolean unexpectedStream, boolean entrySpecific,
                      OptionalInt apiErrorCode, OptionalInt status) {

    public Outcome {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(apiErrorCode, "apiErrorCode");
        Objects.requireNonNull(status, "status");
    }

    /** The two families of the guide's table. */
    public enum Family {
        /** Retried on the live queue until it delivers; never reaches the failed store. */
        TRANSIENT,
        /** Moved to the failed store at once. */
        PERMANENT
    }

    /** The fixed vocabulary of outcome details. */
    public enum Cause {
        CONNECT_FAILED("connect failed"),
        AUTHENTICATION_FAILED("authentication failed"),
        PUBLISH_TIMED_OUT("publish timed out"),
        ATTEMPT_DEADLINE_EXCEEDED("attempt deadline exceeded"),
        PUBLISH_CANCELLED("publish cancelled"),
        CONNECTION_LOST("connection lost"),
        CONNECTION_CLOSED("connection closed"),
        OUTPUT_QUEUE_FULL("output queue full"),
        RECONNECT_BUFFER_FULL("reconnect buffer full"),
        NO_RESPONDERS("no responders"),
        STREAM_NOT_FOUND("stream not found"),
        UNEXPECTED_STREAM("unexpected stream"),
        STREAM_SEALED("stream sealed"),
        STREAM_VALIDATION_FAILED("stream validation failed"),
        ACCOUNT_LIMITS("account resources exceeded"),
        SERVER_ERROR("server error"),
        PAYLOAD_TOO_LARGE("payload exceeds server max_payload"),
        MESSAGE_TOO_LARGE("message exceeds stream max size"),
        HEADERS_TOO_LARGE("headers too large"),
        WRONG_LAST_MSG_ID("wrong last msg id"),
        WRONG_LAST_SEQUENCE("wrong last sequence"),
        UNCLASSIFIED("unclassified failure");

        private final String label;

        Cause(String label) {
            this.label = label;
        }

        /** The vocabulary word(s) used in details. */
        public String label() {
            return label;
        }
    }

    public boolean isTransient() {
        return family == Family.TRANSIENT;
    }

    public boolean isPermanent() {
        return family == Family.PERMANENT;
    }

    /** A transient outcome with no server code and no flags. */
    public static Outcome transientOf(Cause cause) {
        return new Outcome(Family.TRANSIENT, cause, cause.label(), false, false, false,
                OptionalInt.empty(), OptionalInt.empty());
    }

    /** The attempt deadline ran out (§5.3); built by the dispatcher, which owns the deadline. */
    public static Outcome attemptDeadlineExceeded() {
        return transientOf(Cause.ATTEMPT_DEADLINE_EXCEEDED);
    }

    /** A live validation on the publish path failed before publishing: the entry stays (§6). */
    public static Outcome validationFailed() {
        return transientOf(Cause.STREAM_VALIDATION_FAILED);
    }

    /** The connection could not be established at all (§7, first row): retried, never classified further. */
    public static Outcome connectFailed() {
        return transientOf(Cause.CONNECT_FAILED);
    }

    /**
     * The unexpected-stream case of §5.3, naming the stream that captured (or acknowledged) the
     * subject: transient, resets the verdict.
     */
    public static Outcome unexpectedStream(String capturingStream) {
        return new Outcome(Family.TRANSIENT, Cause.UNEXPECTED_STREAM,
                Cause.UNEXPECTED_STREAM.label() + " " + capturingStream, true, true, false,
                OptionalInt.empty(), OptionalInt.empty());
    }

    /**
     * This outcome with the capturing stream named in its detail, for a 10060 rejection once the
     * dispatcher has looked the capturing stream up ({@code getStreamNames(subject)}).
     */
    public Outcome namingCapturingStream(String capturingStream) {
        return new Outcome(family, cause, Cause.UNEXPECTED_STREAM.label() + " " + capturingStream,
                resetsVerdict, unexpectedStream, entrySpecific, apiErrorCode, status);
    }

    /**
     * How a 10109 sealed rejection is handled when it is not the first after a cached PASS (§6):
     * the verdict was already reset by an earlier rejection, so this one counts as a failed
     * validation and the entry stays queued.
     */
    public Outcome asFailedValidation() {
        return new Outcome(Family.TRANSIENT, Cause.STREAM_VALIDATION_FAILED,
                Cause.STREAM_VALIDATION_FAILED.label() + " (" + cause.label() + ")", false, false, false,
                apiErrorCode, status);
    }
}

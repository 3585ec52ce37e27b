package dev.jetsink.lifecycle;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * A classified publish failure, as a listener sees it in {@link LifecycleEvent.AttemptFailed} and
 * {@link LifecycleEvent.MovedToFailedStore}: whether the entry stays queued or goes to the failed
 * store, what happened in a fixed vocabulary, and the server's codes when it sent any.
 *
 * <p>{@link #detail()} is what gets logged and stored in a failed record; it is built only from
 * {@link Cause} labels, numeric codes and the configured or capturing stream name, never from raw
 * server or exception text.
 *
 * @param family       transient (entry stays queued) or permanent (failed store)
 * @param cause        what happened, from the fixed vocabulary
 * @param detail       the stored and logged description
 * @param apiErrorCode the JetStream {@code err_code} when the server sent one
 * @param status       the server's HTTP-like status when there was one
 */
public record Outcome(Family family, Cause cause, String detail, OptionalInt apiErrorCode, OptionalInt status) {

    /**
     * Checks that every component is present.
     *
     * @param family       transient or permanent
     * @param cause        what happened
     * @param detail       the stored and logged description
     * @param apiErrorCode the JetStream {@code err_code}, when sent
     * @param status       the server's status, when sent
     * @throws NullPointerException when one is null
     */
    public Outcome {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(apiErrorCode, "apiErrorCode");
        Objects.requireNonNull(status, "status");
    }

    /** The two families of the outcome table. */
    public enum Family {
        /** Retried on the live queue until it delivers; never reaches the failed store. */
        TRANSIENT,
        /** Moved to the failed store at once. */
        PERMANENT
    }

    /** The fixed vocabulary of outcome details. */
    public enum Cause {
        /** No connection could be made (server down, refused, TLS or DNS failure). */
        CONNECT_FAILED("connect failed"),
        /** The server refused the credentials. */
        AUTHENTICATION_FAILED("authentication failed"),
        /** No publish acknowledgement arrived within the ack timeout. */
        PUBLISH_TIMED_OUT("publish timed out"),
        /** The attempt's overall deadline ran out before an answer. */
        ATTEMPT_DEADLINE_EXCEEDED("attempt deadline exceeded"),
        /** The publish was cancelled, e.g. by a connection change. */
        PUBLISH_CANCELLED("publish cancelled"),
        /** The connection dropped while the publish was in flight. */
        CONNECTION_LOST("connection lost"),
        /** The connection was closed when the publish was made. */
        CONNECTION_CLOSED("connection closed"),
        /** The client's outgoing buffer was full. */
        OUTPUT_QUEUE_FULL("output queue full"),
        /** The client's reconnect buffer was full. */
        RECONNECT_BUFFER_FULL("reconnect buffer full"),
        /** Nothing answered the publish: no stream captures the subject, or JetStream is off. */
        NO_RESPONDERS("no responders"),
        /** The configured stream does not exist (JetStream error 10059). */
        STREAM_NOT_FOUND("stream not found"),
        /** Another stream than the configured one captured the subject or acknowledged it. */
        UNEXPECTED_STREAM("unexpected stream"),
        /** The stream is sealed and accepts no more messages (10109). */
        STREAM_SEALED("stream sealed"),
        /** A live stream validation failed before publishing. */
        STREAM_VALIDATION_FAILED("stream validation failed"),
        /** The account's JetStream resources are exhausted. */
        ACCOUNT_LIMITS("account resources exceeded"),
        /** The server answered with an error jetsink has no more specific word for. */
        SERVER_ERROR("server error"),
        /** The message exceeds the server's max_payload. */
        PAYLOAD_TOO_LARGE("payload exceeds server max_payload"),
        /** The message exceeds the stream's maximum message size (10054). */
        MESSAGE_TOO_LARGE("message exceeds stream max size"),
        /** The message headers exceed 64 KiB (10097). */
        HEADERS_TOO_LARGE("headers too large"),
        /** An expected-last-msg-id condition failed. */
        WRONG_LAST_MSG_ID("wrong last msg id"),
        /** An expected-last-sequence condition failed. */
        WRONG_LAST_SEQUENCE("wrong last sequence"),
        /**
         * An older event of the same object went to the failed store, and a target that keeps each
         * object's order ({@code ORDER=key}) sends the events queued behind it there too.
         */
        FOLLOWS_FAILED_EVENT("follows a failed event of the same object"),
        /** A failure that fits no other word; treated as transient. */
        UNCLASSIFIED("unclassified failure");

        private final String label;

        Cause(String label) {
            this.label = label;
        }

        /**
         * The vocabulary word(s) used in details.
         *
         * @return e.g. {@code "connect failed"}
         */
        public String label() {
            return label;
        }
    }

    /**
     * Whether the entry stays on the live queue and is retried.
     *
     * @return true for {@link Family#TRANSIENT}
     */
    public boolean isTransient() {
        return family == Family.TRANSIENT;
    }

    /**
     * Whether the entry goes to the failed-events store.
     *
     * @return true for {@link Family#PERMANENT}
     */
    public boolean isPermanent() {
        return family == Family.PERMANENT;
    }
}

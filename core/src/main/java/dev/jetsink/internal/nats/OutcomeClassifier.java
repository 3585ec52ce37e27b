package dev.jetsink.internal.nats;

import dev.jetsink.internal.lang.Failures;
import dev.jetsink.lifecycle.Outcome.Cause;
import dev.jetsink.lifecycle.Outcome.Family;
import dev.jetsink.lifecycle.Outcome;
import io.nats.client.AuthenticationException;
import io.nats.client.JetStreamApiException;
import io.nats.client.RequestFailureException;
import io.nats.client.RequestFailureReason;
import io.nats.client.api.PublishAck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Maps every publish outcome to a family (DESIGN.md "Classification"), as one table read top to
 * bottom: the first row whose matcher accepts the failure decides. Anything no row names is
 * transient, because a transient misclassification is only retried while a permanent one can lose
 * an event when its failed record expires.
 *
 * <p>One instance per target: the path decides how an oversized payload is treated and the
 * configured stream is what a PubAck must name. Stateless and thread-safe. Whether a 10109 sealed
 * rejection is "the first after a cached PASS" is the caller's call: it resets the verdict and, if
 * that reset changed nothing, uses {@link Classified#asFailedValidation()} instead.
 */
public final class OutcomeClassifier {

    /** JetStream codes retried on the normal schedule. 2.11+ codes are kept for newer servers. */
    static final Set<Integer> TRANSIENT_CODES = Set.of(10008, 10009, 10023, 10028, 10039, 10047, 10063,
            10076, 10077, 10118, 10163, 10167, 10194, 10202);

    private static final String TIMEOUT_TEXT = "Timeout or no response";
    private static final String PUBLISH_STATUS_PREFIX = "Error Publishing: ";
    private static final Pattern PUBLISH_STATUS = Pattern.compile("^Error Publishing: (\\d{3})\\b.*", Pattern.DOTALL);
    private static final String PAYLOAD_TEXT = "Message payload size exceed";

    /**
     * The outcome table. Order matters: specific codes before status ranges, subclasses before
     * IOException.
     */
    static final List<Row> TABLE = List.of(
            // JetStream API rejections, by err_code first.
            Row.transientRow("10059 stream not found", apiCode(10059), Cause.STREAM_NOT_FOUND).resetting(),
            Row.transientRow("10060 expected stream mismatch", apiCode(10060), Cause.UNEXPECTED_STREAM)
                    .resetting().namingUnexpectedStream(),
            Row.permanentRow("10109 sealed stream", apiCode(10109), Cause.STREAM_SEALED).resetting(),
            Row.permanentRow("10054 message exceeds stream max size", apiCode(10054), Cause.MESSAGE_TOO_LARGE),
            Row.permanentRow("10097 headers too large", apiCode(10097), Cause.HEADERS_TOO_LARGE),
            Row.permanentRow("10070 wrong last msg id", apiCode(10070), Cause.WRONG_LAST_MSG_ID),
            Row.permanentRow("10071 / 10164 wrong last sequence", apiCode(10071, 10164), Cause.WRONG_LAST_SEQUENCE),
            Row.transientRow("10002 / 10120 account limits", apiCode(10002, 10120), Cause.ACCOUNT_LIMITS),
            // 2.11+: a publish of a msg id whose first publish the stream is still storing (jetsink's
            // retry after an ack timeout); the answer to the first one decides, so only this entry waits
            Row.transientRow("10158 duplicate msg id in process", apiCode(10158), Cause.SERVER_ERROR).onlyThisEntry(),
            Row.transientRow("listed transient codes", e -> e.apiCode().isPresent()
                    && TRANSIENT_CODES.contains(e.apiCode().getAsInt()), Cause.SERVER_ERROR),
            Row.transientRow("any status >= 500", e -> e.error() instanceof JetStreamApiException
                    && e.status().orElse(0) >= 500, Cause.SERVER_ERROR),
            Row.transientRow("no err_code", e -> e.error() instanceof JetStreamApiException
                    && e.apiCode().isEmpty(), Cause.SERVER_ERROR),
            Row.transientRow("any other JetStream API error", e -> e.error() instanceof JetStreamApiException,
                    Cause.SERVER_ERROR),
            // Thrown synchronously by jnats before anything is sent.
            Row.permanentRow("payload over max_payload, JetStream path", e -> e.path() == PublishPath.JETSTREAM
                    && oversized(e.error()), Cause.PAYLOAD_TOO_LARGE),
            Row.transientRow("payload over max_payload, Core path", e -> e.path() == PublishPath.CORE
                    && oversized(e.error()), Cause.PAYLOAD_TOO_LARGE).onlyThisEntry(),
            // Request-level failures. RequestFailureException is an IOException: match it first.
            Row.transientRow("503 No Responders", e -> e.error() instanceof IOException
                    && e.status().orElse(0) == 503, Cause.NO_RESPONDERS).resetting(),
            Row.transientRow("request failed: no responders", reason(RequestFailureReason.NO_RESPONDERS),
                    Cause.NO_RESPONDERS).resetting(),
            Row.transientRow("Error Publishing with another status", e -> e.error() instanceof IOException
                    && e.status().isPresent(), Cause.SERVER_ERROR),
            Row.transientRow("request failed: connection closing", reason(RequestFailureReason.CONNECTION_CLOSING),
                    Cause.CONNECTION_LOST),
            Row.transientRow("request failed: cancelled", reason(RequestFailureReason.CANCELLED),
                    Cause.PUBLISH_CANCELLED),
            Row.transientRow("request failed: server error (e.g. permissions violation)",
                    reason(RequestFailureReason.SERVER_ERROR), Cause.SERVER_ERROR),
            Row.transientRow("request failed: timeout",
                    e -> e.error() instanceof RequestFailureException, Cause.PUBLISH_TIMED_OUT),
            Row.transientRow("IOException Timeout or no response", e -> e.error() instanceof IOException
                    && messageStartsWith(e.error(), TIMEOUT_TEXT), Cause.PUBLISH_TIMED_OUT),
            // On the JetStream path a TimeoutException only comes from the attempt-deadline bound
            // (orTimeout); on the Core path from the bounded flush.
            Row.transientRow("TimeoutException, JetStream path", e -> e.path() == PublishPath.JETSTREAM
                    && e.error() instanceof TimeoutException, Cause.ATTEMPT_DEADLINE_EXCEEDED),
            Row.transientRow("TimeoutException, Core path", e -> e.error() instanceof TimeoutException,
                    Cause.PUBLISH_TIMED_OUT),
            Row.transientRow("CancellationException", e -> e.error() instanceof CancellationException,
                    Cause.PUBLISH_CANCELLED),
            Row.transientRow("AuthenticationException", e -> e.error() instanceof AuthenticationException,
                    Cause.AUTHENTICATION_FAILED),
            Row.transientRow("IllegalStateException output queue full", e -> e.error() instanceof IllegalStateException
                    && messageStartsWith(e.error(), "Output queue is"), Cause.OUTPUT_QUEUE_FULL),
            Row.transientRow("IllegalStateException reconnect buffer full", e -> e.error() instanceof IllegalStateException
                    && messageStartsWith(e.error(), "Unable to queue any more messages during reconnect"),
                    Cause.RECONNECT_BUFFER_FULL),
            Row.transientRow("IllegalStateException connection closed", e -> e.error() instanceof IllegalStateException,
                    Cause.CONNECTION_CLOSED),
            Row.transientRow("IOException connection lost or broken pipe", e -> e.error() instanceof IOException,
                    Cause.CONNECTION_LOST),
            Row.transientRow("anything else", e -> true, Cause.UNCLASSIFIED));

    private final PublishPath path;
    private final Optional<String> stream;

    private OutcomeClassifier(PublishPath path, Optional<String> stream) {
        this.path = path;
        this.stream = stream;
    }

    /** A classifier for a target on the Core path. */
    public static OutcomeClassifier forCore() {
        return new OutcomeClassifier(PublishPath.CORE, Optional.empty());
    }

    /** A classifier for a target on the JetStream path publishing to {@code stream}. */
    public static OutcomeClassifier forJetStream(String stream) {
        Objects.requireNonNull(stream, "stream");
        return new OutcomeClassifier(PublishPath.JETSTREAM, Optional.of(stream));
    }

    public PublishPath path() {
        return path;
    }

    /**
     * Classifies a failed publish. Wrappers added by futures and jnats ({@link ExecutionException},
     * {@link CompletionException}, {@link UncheckedIOException}, a bare {@link RuntimeException})
     * are unwrapped to the first meaningful cause.
     */
    public Classified classify(Throwable failure) {
        Evidence evidence = Evidence.of(Failures.unwrap(failure), path);
        Row row = rowFor(evidence);
        return row.outcomeFor(evidence);
    }

    /**
     * The ack check (DESIGN.md "Stream validation and verdict"): a PubAck is success only if it
     * names the configured stream (a duplicate ack is success too). Returns the unexpected-stream
     * outcome otherwise. A duplicate ack with sequence 0 is no proof of storage: nats-server 2.10.14
     * to 2.10.29 answer so while the id's first publish is still in flight, and go on answering so
     * when a leader change dropped it (DESIGN.md "Server versions"). It is transient for this entry
     * alone, which is published again until an ack names a sequence.
     */
    public Optional<Classified> checkAck(PublishAck ack) {
        Optional<Classified> mismatch = checkAckStream(Optional.ofNullable(ack.getStream()).orElse("(none)"));
        if (mismatch.isEmpty() && ack.isDuplicate() && ack.getSeqno() <= 0) {
            return Optional.of(DUPLICATE_WITHOUT_SEQUENCE);
        }
        return mismatch;
    }

    /** What {@link #checkAck} makes of a duplicate ack with sequence 0. */
    static final Classified DUPLICATE_WITHOUT_SEQUENCE = Classified.onlyThisEntry(Cause.SERVER_ERROR,
            Cause.SERVER_ERROR.label() + ": duplicate ack with sequence 0 (the first publish of this msg id may not"
                + " be stored; published again)");

    /** {@link #checkAck(PublishAck)} given only the stream the ack names. */
    public Optional<Classified> checkAckStream(String ackStream) {
        String configured = stream.orElseThrow(
                () -> new IllegalStateException("a Core-path target receives no PubAck"));
        return configured.equals(ackStream) ? Optional.empty() : Optional.of(Classified.unexpectedStream(ackStream));
    }

    /** The row deciding {@code failure}; exposed to tests so each row can be shown to be reachable. */
    Row rowFor(Throwable failure) {
        return rowFor(Evidence.of(Failures.unwrap(failure), path));
    }

    private static Row rowFor(Evidence evidence) {
        for (Row row : TABLE) {
            if (row.matches().test(evidence)) {
                return row;
            }
        }
        throw new AssertionError("the last row matches everything");
    }

    private static Predicate<Evidence> apiCode(int... codes) {
        return e -> {
            if (e.apiCode().isEmpty()) {
                return false;
            }
            for (int code : codes) {
                if (e.apiCode().getAsInt() == code) {
                    return true;
                }
            }
            return false;
        };
    }

    private static Predicate<Evidence> reason(RequestFailureReason reason) {
        return e -> e.error() instanceof RequestFailureException rfe && rfe.getReason() == reason;
    }

    private static boolean oversized(Throwable t) {
        return t instanceof IllegalArgumentException && messageStartsWith(t, PAYLOAD_TEXT);
    }

    private static boolean messageStartsWith(Throwable t, String prefix) {
        return t.getMessage() != null && t.getMessage().startsWith(prefix);
    }

    /** The facts a row may look at: the unwrapped failure, the path, and any server codes in it. */
    record Evidence(Throwable error, PublishPath path, OptionalInt apiCode, OptionalInt status) {

        static Evidence of(Throwable error, PublishPath path) {
            if (error instanceof JetStreamApiException api) {
                OptionalInt code = api.getApiErrorCode() > 0 ? OptionalInt.of(api.getApiErrorCode()) : OptionalInt.empty();
                OptionalInt status = api.getErrorCode() > 0 ? OptionalInt.of(api.getErrorCode()) : OptionalInt.empty();
                return new Evidence(error, path, code, status);
            }
            if (error instanceof IOException && messageStartsWith(error, PUBLISH_STATUS_PREFIX)) {
                // Only the numeric status is kept: the rest is server text and stays out of details.
                Matcher m = PUBLISH_STATUS.matcher(error.getMessage());
                if (m.matches()) {
                    return new Evidence(error, path, OptionalInt.empty(), OptionalInt.of(Integer.parseInt(m.group(1))));
                }
            }
            return new Evidence(error, path, OptionalInt.empty(), OptionalInt.empty());
        }
    }

    /** One row of the table: a matcher and the classified failure it produces. */
    record Row(String name, Predicate<Evidence> matches, Family family, Cause cause,
               boolean resetsVerdict, boolean unexpectedStream, boolean entrySpecific) {

        static Row transientRow(String name, Predicate<Evidence> matches, Cause cause) {
            return new Row(name, matches, Family.TRANSIENT, cause, false, false, false);
        }

        static Row permanentRow(String name, Predicate<Evidence> matches, Cause cause) {
            return new Row(name, matches, Family.PERMANENT, cause, false, false, false);
        }

        Row resetting() {
            return new Row(name, matches, family, cause, true, unexpectedStream, entrySpecific);
        }

        Row namingUnexpectedStream() {
            return new Row(name, matches, family, cause, resetsVerdict, true, entrySpecific);
        }

        Row onlyThisEntry() {
            return new Row(name, matches, family, cause, resetsVerdict, unexpectedStream, true);
        }

        Classified outcomeFor(Evidence e) {
            return new Classified(new Outcome(family, cause, detail(e), e.apiCode(), e.status()),
                    resetsVerdict, unexpectedStream, entrySpecific);
        }

        private String detail(Evidence e) {
            if (e.status().isEmpty() || cause == Cause.NO_RESPONDERS) {
                return cause == Cause.UNCLASSIFIED
                        ? cause.label() + " " + e.error().getClass().getSimpleName()
                        : cause.label();
            }
            String codes = "server error code "
                    + (e.apiCode().isPresent() ? String.valueOf(e.apiCode().getAsInt()) : "none")
                    + " status " + e.status().getAsInt();
            return cause == Cause.SERVER_ERROR ? codes : cause.label() + " (" + codes + ")";
        }
    }
}

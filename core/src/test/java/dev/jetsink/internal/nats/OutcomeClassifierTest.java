package dev.jetsink.internal.nats;

import dev.jetsink.lifecycle.Outcome.Cause;
import dev.jetsink.lifecycle.Outcome.Family;
import dev.jetsink.lifecycle.Outcome;
import io.nats.client.AuthenticationException;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.RequestFailureException;
import io.nats.client.RequestFailureMessage;
import io.nats.client.RequestFailureReason;
import io.nats.client.api.ApiResponse;
import io.nats.client.api.PublishAck;
import io.nats.client.impl.NatsMessage;
import io.nats.client.support.JsonParser;
import io.nats.client.support.NatsRequestCompletableFuture;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static dev.jetsink.internal.nats.PublishPath.CORE;
import static dev.jetsink.internal.nats.PublishPath.JETSTREAM;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One case per row of the outcome table (DESIGN.md "Classification");
 * {@link #everyRowOfTheTableIsExercised()} keeps it that way.
 */
class OutcomeClassifierTest {

    private static final String STREAM = "RUSTFS_EVENTS";
    /** Raw server text that must never reach a detail. */
    private static final String RAW = "raw server text s3cr3t";

    private static final String TRANSIENT = "transient";
    private static final String PERMANENT = "permanent";
    private static final String RESETS = "resets";
    private static final String UNEXPECTED = "unexpected";
    private static final String ENTRY = "entry";

    /** A row's expectation: what is thrown, on which path, and the outcome it must give. */
    record Case(String row, PublishPath path, Throwable error, Family family, Cause cause, String detail,
                Set<String> flags) {
    }

    static List<Named<Case>> cases() {
        return List.of(
                c("stream not found (10059) is transient and resets the verdict", "10059 stream not found", JETSTREAM,
                        api(404, 10059), Cause.STREAM_NOT_FOUND,
                        "stream not found (server error code 10059 status 404)", TRANSIENT, RESETS),
                c("expected stream mismatch (10060) is transient, an unexpected stream, and resets the verdict",
                        "10060 expected stream mismatch", JETSTREAM, api(400, 10060), Cause.UNEXPECTED_STREAM,
                        "unexpected stream (server error code 10060 status 400)", TRANSIENT, RESETS, UNEXPECTED),
                c("sealed stream (10109) is permanent and resets the verdict", "10109 sealed stream", JETSTREAM,
                        api(400, 10109), Cause.STREAM_SEALED, "stream sealed (server error code 10109 status 400)",
                        PERMANENT, RESETS),
                c("message over stream max size (10054) is permanent", "10054 message exceeds stream max size",
                        JETSTREAM, api(400, 10054), Cause.MESSAGE_TOO_LARGE,
                        "message exceeds stream max size (server error code 10054 status 400)", PERMANENT),
                c("headers too large (10097) is permanent", "10097 headers too large", JETSTREAM, api(400, 10097),
                        Cause.HEADERS_TOO_LARGE, "headers too large (server error code 10097 status 400)", PERMANENT),
                c("wrong last msg id (10070) is permanent", "10070 wrong last msg id", JETSTREAM, api(400, 10070),
                        Cause.WRONG_LAST_MSG_ID, "wrong last msg id (server error code 10070 status 400)", PERMANENT),
                c("wrong last sequence (10071) is permanent", "10071 / 10164 wrong last sequence", JETSTREAM,
                        api(400, 10071), Cause.WRONG_LAST_SEQUENCE,
                        "wrong last sequence (server error code 10071 status 400)", PERMANENT),
                c("wrong last sequence (10164) is permanent", "10071 / 10164 wrong last sequence", JETSTREAM,
                        api(400, 10164), Cause.WRONG_LAST_SEQUENCE,
                        "wrong last sequence (server error code 10164 status 400)", PERMANENT),
                c("account resources exceeded (10002) is transient", "10002 / 10120 account limits", JETSTREAM,
                        api(400, 10002), Cause.ACCOUNT_LIMITS,
                        "account resources exceeded (server error code 10002 status 400)", TRANSIENT),
                c("no limits (10120) is transient", "10002 / 10120 account limits", JETSTREAM, api(400, 10120),
                        Cause.ACCOUNT_LIMITS, "account resources exceeded (server error code 10120 status 400)",
                        TRANSIENT),
                c("JetStream temporarily unavailable (10008) is transient", "listed transient codes", JETSTREAM,
                        api(503, 10008), Cause.SERVER_ERROR, "server error code 10008 status 503", TRANSIENT),
                c("stream offline (10118) is transient", "listed transient codes", JETSTREAM,
                        api(500, 10118), Cause.SERVER_ERROR, "server error code 10118 status 500", TRANSIENT),
                c("any status of 500 or more without a listed code is transient", "any status >= 500", JETSTREAM,
                        api(500, 10052), Cause.SERVER_ERROR, "server error code 10052 status 500", TRANSIENT),
                c("a 503 with no err_code (clustered raft error) is transient", "any status >= 500", JETSTREAM,
                        api(503, -1), Cause.SERVER_ERROR, "server error code none status 503", TRANSIENT),
                c("a rejection with no err_code below 500 is transient", "no err_code", JETSTREAM, api(400, -1),
                        Cause.SERVER_ERROR, "server error code none status 400", TRANSIENT),
                c("a msg id still being stored (2.11+) is transient for that entry alone",
                        "10158 duplicate msg id in process", JETSTREAM, api(409, 10158), Cause.SERVER_ERROR,
                        "server error code 10158 status 409", TRANSIENT, ENTRY),
                c("an unknown JetStream code below 500 is transient", "any other JetStream API error", JETSTREAM,
                        api(400, 10999), Cause.SERVER_ERROR, "server error code 10999 status 400", TRANSIENT),
                c("payload over max_payload on the JetStream path is permanent",
                        "payload over max_payload, JetStream path", JETSTREAM, oversized(), Cause.PAYLOAD_TOO_LARGE,
                        "payload exceeds server max_payload", PERMANENT),
                c("payload over max_payload on the Core path is transient and entry-specific",
                        "payload over max_payload, Core path", CORE, oversized(), Cause.PAYLOAD_TOO_LARGE,
                        "payload exceeds server max_payload", TRANSIENT, ENTRY),
                c("503 No Responders is transient and resets the verdict", "503 No Responders", JETSTREAM,
                        new IOException("Error Publishing: 503 No Responders Available For Request"),
                        Cause.NO_RESPONDERS, "no responders", TRANSIENT, RESETS),
                c("a request failure for no responders is transient and resets the verdict",
                        "request failed: no responders", JETSTREAM,
                        requestFailure(NatsRequestCompletableFuture.CancelAction.CANCEL, new CancellationException(),
                                Connection.Status.CONNECTED, null),
                        Cause.NO_RESPONDERS, "no responders", TRANSIENT, RESETS),
                c("a 429 on publish is transient", "Error Publishing with another status", JETSTREAM,
                        new IOException("Error Publishing: 429 " + RAW), Cause.SERVER_ERROR,
                        "server error code none status 429", TRANSIENT),
                c("a request failing while the connection closes is transient", "request failed: connection closing",
                        JETSTREAM, requestFailure(NatsRequestCompletableFuture.CancelAction.REPORT, null,
                                Connection.Status.DISCONNECTED, null),
                        Cause.CONNECTION_LOST, "connection lost", TRANSIENT),
                c("a cancelled request failure is transient", "request failed: cancelled", JETSTREAM,
                        requestFailure(NatsRequestCompletableFuture.CancelAction.REPORT, new CancellationException(),
                                Connection.Status.CONNECTED, null),
                        Cause.PUBLISH_CANCELLED, "publish cancelled", TRANSIENT),
                c("a request failure with a server error (permissions violation) is transient",
                        "request failed: server error (e.g. permissions violation)", JETSTREAM,
                        requestFailure(NatsRequestCompletableFuture.CancelAction.REPORT, null,
                                Connection.Status.CONNECTED, "Permissions Violation for Publish " + RAW),
                        Cause.SERVER_ERROR, "server error", TRANSIENT),
                c("a timed-out request failure is transient", "request failed: timeout", JETSTREAM,
                        requestFailure(NatsRequestCompletableFuture.CancelAction.REPORT, null,
                                Connection.Status.CONNECTED, null),
                        Cause.PUBLISH_TIMED_OUT, "publish timed out", TRANSIENT),
                c("Timeout or no response is transient", "IOException Timeout or no response", JETSTREAM,
                        new IOException("Timeout or no response waiting for NATS JetStream server"),
                        Cause.PUBLISH_TIMED_OUT, "publish timed out", TRANSIENT),
                c("a TimeoutException on the JetStream path is the attempt deadline", "TimeoutException, JetStream path",
                        JETSTREAM, new TimeoutException(), Cause.ATTEMPT_DEADLINE_EXCEEDED, "attempt deadline exceeded",
                        TRANSIENT),
                c("a TimeoutException on the Core path is a publish timeout", "TimeoutException, Core path", CORE,
                        new TimeoutException(RAW), Cause.PUBLISH_TIMED_OUT, "publish timed out", TRANSIENT),
                c("a CancellationException is transient", "CancellationException", JETSTREAM,
                        new CancellationException(), Cause.PUBLISH_CANCELLED, "publish cancelled", TRANSIENT),
                c("an authentication failure is transient", "AuthenticationException", JETSTREAM,
                        new AuthenticationException(RAW), Cause.AUTHENTICATION_FAILED, "authentication failed",
                        TRANSIENT),
                c("output queue full is transient", "IllegalStateException output queue full", JETSTREAM,
                        new IllegalStateException("Output queue is full 5000"), Cause.OUTPUT_QUEUE_FULL,
                        "output queue full", TRANSIENT),
                c("reconnect buffer full is transient", "IllegalStateException reconnect buffer full", JETSTREAM,
                        new IllegalStateException("Unable to queue any more messages during reconnect, max buffer is 8388608"),
                        Cause.RECONNECT_BUFFER_FULL, "reconnect buffer full", TRANSIENT),
                c("a closed connection is transient", "IllegalStateException connection closed", JETSTREAM,
                        new IllegalStateException("Connection is Closed"), Cause.CONNECTION_CLOSED, "connection closed",
                        TRANSIENT),
                c("a broken pipe is transient", "IOException connection lost or broken pipe", JETSTREAM,
                        new SocketException("Broken pipe " + RAW), Cause.CONNECTION_LOST, "connection lost", TRANSIENT),
                c("a connection lost mid-publish is transient", "IOException connection lost or broken pipe", CORE,
                        new EOFException(), Cause.CONNECTION_LOST, "connection lost", TRANSIENT),
                c("anything unknown is transient", "anything else", JETSTREAM, new IllegalArgumentException(RAW),
                        Cause.UNCLASSIFIED, "unclassified failure IllegalArgumentException", TRANSIENT));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachRowOfTheTableGivesItsOutcome(Case c) {
        Classified classified = classifier(c.path()).classify(c.error());
        Outcome outcome = classified.outcome();

        assertThat(classifier(c.path()).rowFor(c.error()).name()).isEqualTo(c.row());
        assertThat(outcome.family()).isEqualTo(c.family());
        assertThat(outcome.cause()).isEqualTo(c.cause());
        assertThat(outcome.detail()).isEqualTo(c.detail());
        assertThat(classified.resetsVerdict()).isEqualTo(c.flags().contains(RESETS));
        assertThat(classified.unexpectedStream()).isEqualTo(c.flags().contains(UNEXPECTED));
        assertThat(classified.entrySpecific()).isEqualTo(c.flags().contains(ENTRY));
        assertThat(outcome.detail()).doesNotContain("s3cr3t").doesNotContain("raw");
    }

    @Test
    void everyRowOfTheTableIsExercised() {
        Set<String> reached = cases().stream().map(Named::getPayload).map(Case::row).collect(Collectors.toSet());
        Set<String> rows = OutcomeClassifier.TABLE.stream().map(OutcomeClassifier.Row::name)
                .collect(Collectors.toCollection(HashSet::new));
        assertThat(reached).containsExactlyInAnyOrderElementsOf(rows);
    }

    @Test
    void everyListedTransientCodeIsTransientEvenBelowStatus500() {
        for (int code : List.of(10008, 10009, 10023, 10028, 10039, 10047, 10063, 10076, 10077, 10118,
                10163, 10167, 10194, 10202)) {
            Outcome outcome = classifier(JETSTREAM).classify(api(400, code)).outcome();
            assertThat(outcome.family()).as("code %d", code).isEqualTo(Family.TRANSIENT);
            assertThat(outcome.detail()).isEqualTo("server error code " + code + " status 400");
            assertThat(classifier(JETSTREAM).rowFor(api(400, code)).name()).isEqualTo("listed transient codes");
        }
    }

    @Test
    void futureAndRuntimeWrappersAreUnwrapped() {
        Throwable wrapped = new ExecutionException(new RuntimeException(api(404, 10059)));
        Throwable completion = new CompletionException(new RuntimeException(new java.io.UncheckedIOException(
                new IOException("Error Publishing: 503 No Responders Available For Request"))));

        assertThat(classifier(JETSTREAM).classify(wrapped).outcome().cause()).isEqualTo(Cause.STREAM_NOT_FOUND);
        assertThat(classifier(JETSTREAM).classify(completion).outcome().cause()).isEqualTo(Cause.NO_RESPONDERS);
    }

    @Test
    void illegalStateExceptionIsNotUnwrappedIntoItsCause() {
        Throwable error = new IllegalStateException("Output queue is full 5000", new IOException("x"));
        assertThat(classifier(JETSTREAM).classify(error).outcome().cause()).isEqualTo(Cause.OUTPUT_QUEUE_FULL);
    }

    @Test
    void ackFromTheConfiguredStreamIsSuccess() throws Exception {
        assertThat(classifier(JETSTREAM).checkAck(ack("{\"stream\":\"RUSTFS_EVENTS\",\"seq\":7}"))).isEmpty();
    }

    @Test
    void duplicateAckFromTheConfiguredStreamIsSuccess() throws Exception {
        PublishAck ack = ack("{\"stream\":\"RUSTFS_EVENTS\",\"seq\":7,\"duplicate\":true}");
        assertThat(ack.isDuplicate()).isTrue();
        assertThat(classifier(JETSTREAM).checkAck(ack)).isEmpty();
    }

    @Test
    void aDuplicateAckWithSequenceZeroIsNoProofOfStorageAndOnlyItsEntryWaits() throws Exception {
        // nats-server 2.10.14-2.10.29 answer so while the id's first publish is in flight, and keep
        // answering so if a leader change dropped that publish; jnats passes such an ack on
        PublishAck ack = ack("{\"stream\":\"RUSTFS_EVENTS\",\"seq\":0,\"duplicate\":true}");
        Classified classified = classifier(JETSTREAM).checkAck(ack).orElseThrow();
        assertThat(classified.outcome().family()).isEqualTo(Family.TRANSIENT);
        assertThat(classified.outcome().cause()).isEqualTo(Cause.SERVER_ERROR);
        assertThat(classified.entrySpecific()).as("the target stays healthy; only this entry waits").isTrue();
        assertThat(classified.resetsVerdict()).isFalse();
        assertThat(classified.outcome().detail()).contains("duplicate ack with sequence 0");
        assertThat(classifier(JETSTREAM).checkAck(ack("{\"stream\":\"OTHER\",\"seq\":0,\"duplicate\":true}"))
            .orElseThrow().unexpectedStream()).as("another stream's ack stays an unexpected stream").isTrue();
    }

    @Test
    void ackFromAnotherStreamIsAnUnexpectedStreamThatResetsTheVerdict() throws Exception {
        Classified classified = classifier(JETSTREAM).checkAck(ack("{\"stream\":\"OTHER\",\"seq\":1}")).orElseThrow();

        assertThat(classified.outcome().family()).isEqualTo(Family.TRANSIENT);
        assertThat(classified.unexpectedStream()).isTrue();
        assertThat(classified.resetsVerdict()).isTrue();
        assertThat(classified.outcome().detail()).isEqualTo("unexpected stream OTHER");
    }

    @Test
    void expectedStreamRejectionNamesTheCapturingStreamOnceLookedUp() {
        Classified classified = classifier(JETSTREAM).classify(api(400, 10060)).namingCapturingStream("OTHER");
        assertThat(classified.outcome().detail()).isEqualTo("unexpected stream OTHER");
        assertThat(classified.outcome().apiErrorCode()).hasValue(10060);
        assertThat(classified.unexpectedStream()).isTrue();
        assertThat(classified.resetsVerdict()).isTrue();
    }

    @Test
    void sealedRejectionAfterTheVerdictWasAlreadyResetIsAFailedValidation() {
        Classified sealed = classifier(JETSTREAM).classify(api(400, 10109));
        Classified later = sealed.asFailedValidation();

        assertThat(later.outcome().family()).isEqualTo(Family.TRANSIENT);
        assertThat(later.outcome().cause()).isEqualTo(Cause.STREAM_VALIDATION_FAILED);
        assertThat(later.outcome().detail()).isEqualTo("stream validation failed (stream sealed)");
        assertThat(later.outcome().apiErrorCode()).hasValue(10109);
        assertThat(later.resetsVerdict()).isFalse();
    }

    @Test
    void dispatcherBuiltOutcomesUseTheFixedVocabulary() {
        assertThat(Classified.attemptDeadlineExceeded().outcome().detail()).isEqualTo("attempt deadline exceeded");
        assertThat(Classified.validationFailed().outcome().detail()).isEqualTo("stream validation failed");
        assertThat(Classified.connectFailed().outcome().detail()).isEqualTo("connect failed");
        assertThat(Stream.of(Classified.attemptDeadlineExceeded(), Classified.validationFailed(),
                Classified.connectFailed()).map(Classified::outcome))
                .allMatch(Outcome::isTransient);
    }

    private static OutcomeClassifier classifier(PublishPath path) {
        return path == CORE ? OutcomeClassifier.forCore() : OutcomeClassifier.forJetStream(STREAM);
    }

    private static Named<Case> c(String sentence, String row, PublishPath path, Throwable error, Cause cause,
                                 String detail, String family, String... flags) {
        Family f = family.equals(PERMANENT) ? Family.PERMANENT : Family.TRANSIENT;
        return Named.of(sentence, new Case(row, path, error, f, cause, detail, Set.of(flags)));
    }

    /** A JetStream rejection as jnats builds it from the server's JSON; -1 leaves err_code out. */
    static JetStreamApiException api(int status, int apiCode) {
        String code = apiCode < 0 ? "" : ",\"err_code\":" + apiCode;
        String json = "{\"error\":{\"code\":" + status + code + ",\"description\":\"" + RAW + "\"}}";
        return new JetStreamApiException(new ApiResponse<Void>(JsonParser.parseUnchecked(json)) {
        }.getErrorObject());
    }

    private static IllegalArgumentException oversized() {
        return new IllegalArgumentException("Message payload size exceed server configuration 2000000 vs 1048576");
    }

    private static RequestFailureException requestFailure(NatsRequestCompletableFuture.CancelAction action,
                                                          Throwable cause, Connection.Status status, String lastError) {
        NatsRequestCompletableFuture future = new NatsRequestCompletableFuture(action, Duration.ofSeconds(1), false);
        return new RequestFailureException(new RequestFailureMessage(future, cause, status, lastError));
    }

    private static PublishAck ack(String json) throws Exception {
        return new PublishAck(new NatsMessage("_INBOX.x", null, json.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void requestFailureFixturesCarryTheReasonTheirRowExpects() {
        assertThat(requestFailure(NatsRequestCompletableFuture.CancelAction.CANCEL, new CancellationException(),
                Connection.Status.CONNECTED, null).getReason()).isEqualTo(RequestFailureReason.NO_RESPONDERS);
        assertThat(requestFailure(NatsRequestCompletableFuture.CancelAction.REPORT, null,
                Connection.Status.DISCONNECTED, null).getReason()).isEqualTo(RequestFailureReason.CONNECTION_CLOSING);
    }
}

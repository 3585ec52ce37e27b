package dev.jetsink.internal.nats;

import dev.jetsink.internal.nats.ValidationResult.Cause;
import dev.jetsink.lifecycle.Outcome;
import dev.jetsink.lifecycle.Outcome.Family;
import dev.jetsink.testkit.NatsBinary;
import dev.jetsink.testkit.NatsCluster;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.NatsVersion;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.PublishOptions;
import io.nats.client.api.DiscardPolicy;
import io.nats.client.api.Mirror;
import io.nats.client.api.PersistMode;
import io.nats.client.api.PublishAck;
import io.nats.client.api.Source;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import io.nats.client.api.SubjectTransform;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * What a real nats-server does with the publishes and stream configurations jetsink relies on, and
 * what jetsink's own {@link OutcomeClassifier} and {@link StreamValidator} make of it (DESIGN.md
 * "Classification", "Stream validation and verdict"). Tagged {@code broker}, so the compatibility
 * pass runs it on the oldest (2.9.10) and previous (2.10.x) servers as well as the current one; an
 * expectation that differs between generations branches on {@link NatsBinary#version()} and says
 * what differs. A server generation that changes a code, an order or a field jetsink depends on
 * fails here first.
 */
@Tag("broker")
class BrokerBehaviourTest {

    private static final NatsVersion VERSION = NatsBinary.version();
    private static final byte[] PAYLOAD = {'x'};
    private static final int ACK_TIMEOUT_SECS = 30;
    /** At least what {@link DuplicateWindow} requires for a 30 s ack timeout, so validation can pass. */
    private static final Duration WINDOW = Duration.ofSeconds(274);
    private static final String DOMAIN = "hub";
    /**
     * The first release after the 2.10 line. A change seen on 2.15.1 but not on 2.10.27 is expected
     * from here on; which release between them made it was not verified (no 2.11-2.14 server here).
     */
    private static final String AFTER_2_10 = "2.11.0";

    /**
     * One server for the class: JetStream in domain {@value #DOMAIN} (so acks carry a domain), plain
     * connections in account APP, and account TINY whose JetStream storage is 1 KiB of each kind.
     */
    private static final String SERVER_CONFIG = """
            jetstream { domain: hub }
            no_auth_user: app
            accounts {
              APP { jetstream: enabled, users [ { user: app, password: app } ] }
              TINY { jetstream { max_mem: 1024, max_file: 1024 }, users [ { user: tiny, password: tiny } ] }
            }
            """;

    private static NatsServer server;
    private static Connection conn;
    private static JetStream js;
    private static JetStreamManagement jsm;

    @BeforeAll
    static void startServer() throws Exception {
        server = NatsServer.builder().config(SERVER_CONFIG).build().start();
        conn = Nats.connect(new Options.Builder().server(server.url()).build());
        js = conn.jetStream();
        jsm = conn.jetStreamManagement();
        assertThat(NatsVersion.parse(conn.getServerInfo().getVersion())).isEqualTo(VERSION);
    }

    @AfterAll
    static void stopServer() throws InterruptedException {
        if (conn != null) {
            conn.close();
        }
        if (server != null) {
            server.close();
        }
    }

    // Publish outcomes and error codes

    @Test
    void wrongExpectedLastSequenceOrSubjectSequenceIs10071AndPermanent() throws Exception {
        createStream("LAST_SEQ", c -> c);
        publish("last_seq.a", options().build());
        publish("last_seq.b", options().build());

        JetStreamApiException stream = rejection("last_seq.a", options().expectedLastSequence(99).build());
        // The last message on .a is 1 although the stream's last sequence is 2: the subject's counts.
        JetStreamApiException subject = rejection("last_seq.a", options().expectedLastSubjectSequence(2).build());

        assertThat(stream.getErrorDescription()).isEqualTo("wrong last sequence: 2");
        assertThat(subject.getErrorDescription()).isEqualTo("wrong last sequence: 1");
        for (JetStreamApiException e : List.of(stream, subject)) {
            assertApiError(e, 400, 10071);
            assertOutcome(classifier("LAST_SEQ").classify(e), Family.PERMANENT, Outcome.Cause.WRONG_LAST_SEQUENCE, 10071);
        }
    }

    /**
     * What an ordered target with a subject per object relies on (DESIGN.md "Where a subject names
     * one object"): 0 expects a subject with no message; a re-publish of a stored msg id with a
     * wrong expected subject sequence stores nothing, answered as a duplicate by 2.10 and older and
     * refused naming the copy's sequence by later servers.
     */
    @Test
    void anExpectedSubjectSequenceOfZeroMeansNoMessageYetAndADuplicateIsNeverStoredAgain() throws Exception {
        createStream("SUBJ_SEQ", c -> c.duplicateWindow(WINDOW));
        PublishAck first = publish("subj_seq.a", options().messageId("a-1").expectedLastSubjectSequence(0).build());
        JetStreamApiException zero = rejection("subj_seq.a", options().messageId("a-2").expectedLastSubjectSequence(0).build());
        assertThat(zero.getErrorDescription()).isEqualTo("wrong last sequence: " + first.getSeqno());
        PublishAck other = publish("subj_seq.b", options().messageId("b-1").expectedLastSubjectSequence(0).build());
        assertThat(other.getSeqno()).as("another subject has no message yet").isEqualTo(first.getSeqno() + 1);

        PublishOptions again = options().messageId("a-1").expectedLastSubjectSequence(first.getSeqno() + 7).build();
        if (VERSION.atLeast(AFTER_2_10)) {
            assertThat(rejection("subj_seq.a", again).getErrorDescription()).isEqualTo("wrong last sequence: " + first.getSeqno());
        } else {
            PublishAck duplicate = publish("subj_seq.a", again);
            assertThat(duplicate.isDuplicate()).isTrue();
            assertThat(duplicate.getSeqno()).isEqualTo(first.getSeqno());
        }
        assertThat(jsm.getStreamInfo("SUBJ_SEQ").getStreamState().getMsgCount()).isEqualTo(2);
    }

    @Test
    void wrongExpectedLastMsgIdIs10070AndPermanent() throws Exception {
        createStream("LAST_ID", c -> c);
        publish("last_id", options().messageId("first").build());

        JetStreamApiException e = rejection("last_id", options().expectedLastMsgId("other").build());

        assertApiError(e, 400, 10070);
        assertOutcome(classifier("LAST_ID").classify(e), Family.PERMANENT, Outcome.Cause.WRONG_LAST_MSG_ID, 10070);
    }

    @Test
    void sealedStreamIs10109PermanentResetsTheVerdictAndCannotBeUnsealed() throws Exception {
        // A throw-away stream: sealing is final.
        createStream("SEALED", c -> c.duplicateWindow(WINDOW));
        publish("sealed", options().messageId("stored").build());
        Streams.seal(conn, "SEALED");

        JetStreamApiException fresh = rejection("sealed", options().messageId("fresh").build());
        // The sealed check comes before dedupe: even a msg id the stream holds is refused, not a duplicate.
        JetStreamApiException stored = rejection("sealed", options().messageId("stored").build());

        for (JetStreamApiException e : List.of(fresh, stored)) {
            assertApiError(e, 400, 10109);
            Classified classified = classifier("SEALED").classify(e);
            assertOutcome(classified, Family.PERMANENT, Outcome.Cause.STREAM_SEALED, 10109);
            assertThat(classified.resetsVerdict()).isTrue();
        }
        assertThat(validator("SEALED", "sealed").validate(facts("SEALED")))
                .isInstanceOfSatisfying(ValidationResult.Failed.class, f -> assertThat(f.has(Cause.SEALED)).isTrue());
        String unseal = "{\"name\":\"SEALED\",\"subjects\":[\"sealed\"],\"storage\":\"file\",\"num_replicas\":1,\"sealed\":false}";
        String answer = new String(conn.request("$JS.API.STREAM.UPDATE.SEALED", unseal.getBytes(), Duration.ofSeconds(5))
                .getData());
        assertThat(answer).contains("\"err_code\":10052");
    }

    @Test
    void fullStreamWithDiscardNewIs10077AndTransient() throws Exception {
        createStream("FULL_MSGS", c -> c.maxMessages(1).discardPolicy(DiscardPolicy.New));
        createStream("FULL_BYTES", c -> c.maxBytes(100).discardPolicy(DiscardPolicy.New));
        publish("full_msgs", options().build());
        publish("full_bytes", options().build());

        JetStreamApiException msgs = rejection("full_msgs", options().build());
        JetStreamApiException bytes = catchRejection(() -> js.publish("full_bytes", new byte[100], options().build()));

        assertApiError(msgs, 503, 10077);
        assertThat(msgs.getErrorDescription()).isEqualTo("maximum messages exceeded");
        assertApiError(bytes, 503, 10077);
        assertThat(bytes.getErrorDescription()).isEqualTo("maximum bytes exceeded");
        // Transient: the queue keeps the entry until the stream has room (an operator raises the limit).
        assertOutcome(classifier("FULL_MSGS").classify(msgs), Family.TRANSIENT, Outcome.Cause.SERVER_ERROR, 10077);
        assertOutcome(classifier("FULL_BYTES").classify(bytes), Family.TRANSIENT, Outcome.Cause.SERVER_ERROR, 10077);
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    @ParameterizedTest
    @EnumSource(StorageType.class)
    void accountOverItsJetStreamStorageIs10002AndTransient(StorageType storage) throws Exception {
        String stream = "TINY_" + storage.name().toUpperCase();
        String subject = "tiny." + storage.name().toLowerCase();
        try (Connection tiny = Nats.connect(new Options.Builder().server(server.url()).userInfo("tiny", "tiny").build())) {
            tiny.jetStreamManagement().addStream(StreamConfiguration.builder().name(stream).subjects(subject)
                    .storageType(storage).build());
            JetStream tinyJs = tiny.jetStream();
            JetStreamApiException e = null;
            for (int i = 0; i < 20 && e == null; i++) {
                e = catchRejectionOrAck(() -> tinyJs.publish(subject, new byte[200], options().build()));
            }

            assertThat(e).as("1 KiB of account storage is full after a few 200-byte messages").isNotNull();
            // Same on 2.9.10, 2.10.27 and 2.15.1: 400 / 10002, not the stream's 10077.
            assertApiError(e, 400, 10002);
            assertThat(e.getErrorDescription()).isEqualTo("resource limits exceeded for account");
            assertOutcome(classifier(stream).classify(e), Family.TRANSIENT, Outcome.Cause.ACCOUNT_LIMITS, 10002);
        }
    }

    @Test
    void messageOverStreamMaxSizeIs10054AndPermanent() throws Exception {
        createStream("SMALL", c -> c.maximumMessageSize(10));

        JetStreamApiException e = catchRejection(() -> js.publish("small", new byte[20], options().build()));

        assertApiError(e, 400, 10054);
        assertThat(e.getErrorDescription()).isEqualTo("message size exceeds maximum allowed");
        assertOutcome(classifier("SMALL").classify(e), Family.PERMANENT, Outcome.Cause.MESSAGE_TOO_LARGE, 10054);
        assertThat(facts("SMALL").maxMessageSize()).isEqualTo(10);
    }

    @Test
    void subjectNoStreamCapturesIsNoRespondersTransientAndResetting() {
        IOException e = null;
        try {
            js.publish("nobody.captures.this", PAYLOAD, options().build());
            fail("a subject no stream captures was acknowledged");
        } catch (IOException io) {
            e = io;
        } catch (JetStreamApiException api) {
            fail("expected no responders, got " + api);
        }

        assertThat(e).hasMessage("Error Publishing: 503 No Responders Available For Request");
        Classified classified = classifier("ANY").classify(e);
        assertThat(classified.outcome().family()).isEqualTo(Family.TRANSIENT);
        assertThat(classified.outcome().cause()).isEqualTo(Outcome.Cause.NO_RESPONDERS);
        assertThat(classified.outcome().status()).isEqualTo(OptionalInt.of(503));
        assertThat(classified.resetsVerdict()).isTrue();
    }

    @Test
    void expectedStreamMismatchIs10060AndTheUnexpectedStreamCase() throws Exception {
        createStream("ACTUAL", c -> c);

        JetStreamApiException e = rejection("actual", options().expectedStream("CONFIGURED").build());

        assertApiError(e, 400, 10060);
        assertThat(e.getErrorDescription()).isEqualTo("expected stream does not match");
        Classified classified = classifier("CONFIGURED").classify(e);
        assertOutcome(classified, Family.TRANSIENT, Outcome.Cause.UNEXPECTED_STREAM, 10060);
        assertThat(classified.unexpectedStream()).isTrue();
        assertThat(classified.resetsVerdict()).isTrue();
        assertThat(Streams.state(conn, "ACTUAL").getMsgCount()).as("refused before storing").isZero();
    }

    // Nats-Expected-* headers and their order relative to dedupe

    @Test
    void everyExpectedHeaderThatHoldsLetsThePublishThrough() throws Exception {
        createStream("EXPECT", c -> c);
        publish("expect.a", options().messageId("one").build());
        publish("expect.b", options().build());

        PublishAck ack = publish("expect.a", options().expectedStream("EXPECT").expectedLastSequence(2)
                .expectedLastSubjectSequence(1).build());
        PublishAck byId = publish("expect.b", options().messageId("four").build());
        PublishAck afterId = publish("expect.b", options().expectedLastMsgId("four").build());

        assertThat(ack.getSeqno()).isEqualTo(3);
        assertThat(byId.getSeqno()).isEqualTo(4);
        assertThat(afterId.getSeqno()).isEqualTo(5);
    }

    @Test
    void expectedStreamIsCheckedBeforeDedupe() throws Exception {
        createStream("BEFORE_DEDUPE", c -> c);
        publish("before_dedupe", options().messageId("X").build());

        JetStreamApiException e = rejection("before_dedupe", options().messageId("X").expectedStream("OTHER").build());

        assertApiError(e, 400, 10060);
    }

    @Test
    void aStoredMsgIdWithAFailingExpectedLastSequence() throws Exception {
        createStream("DEDUPE_ORDER", c -> c);
        publish("dedupe_order.a", options().messageId("X").build());
        publish("dedupe_order.b", options().build());
        PublishOptions lastSeq = options().messageId("X").expectedLastSequence(99).build();
        PublishOptions lastSubjectSeq = options().messageId("X").expectedLastSubjectSequence(99).build();

        if (VERSION.atLeast(AFTER_2_10)) {
            // 2.15.1 checks expected-last-sequence (and -subject-sequence) before dedupe: a retry of a
            // stored id with a stale expectation is refused, not reported as the duplicate it is.
            for (PublishOptions o : List.of(lastSeq, lastSubjectSeq)) {
                JetStreamApiException e = rejection("dedupe_order.a", o);
                assertApiError(e, 400, 10071);
                assertOutcome(classifier("DEDUPE_ORDER").classify(e), Family.PERMANENT,
                        Outcome.Cause.WRONG_LAST_SEQUENCE, 10071);
            }
        } else {
            // 2.9.10 and 2.10.27: dedupe first (NATS-NOTES), the expectation is never looked at.
            for (PublishOptions o : List.of(lastSeq, lastSubjectSeq)) {
                PublishAck ack = publish("dedupe_order.a", o);
                assertThat(ack.isDuplicate()).isTrue();
                assertThat(ack.getSeqno()).isEqualTo(1);
            }
        }
        assertThat(Streams.state(conn, "DEDUPE_ORDER").getMsgCount()).isEqualTo(2);
    }

    @Test
    void aStoredMsgIdWithAFailingExpectedLastMsgIdIsADuplicate() throws Exception {
        createStream("DEDUPE_LAST_ID", c -> c);
        publish("dedupe_last_id", options().messageId("X").build());
        publish("dedupe_last_id", options().messageId("Y").build());

        // Every version: dedupe comes before the expected-last-msg-id check.
        PublishAck ack = publish("dedupe_last_id", options().messageId("X").expectedLastMsgId("Z").build());

        assertThat(ack.isDuplicate()).isTrue();
        assertThat(ack.getSeqno()).isEqualTo(1);
    }

    // Stream configuration fields validation reads

    @Test
    void aMirrorFailsValidationAndItsOriginAcknowledgesThePublish() throws Exception {
        createStream("ORIGIN", c -> c.duplicateWindow(WINDOW));
        jsm.addStream(StreamConfiguration.builder().name("COPY").mirror(Mirror.builder().sourceName("ORIGIN").build())
                .build());

        ValidationResult result = validator("COPY", "origin").validate(facts("COPY"));
        PublishAck ack = publish("origin", options().build());

        assertThat(result).isInstanceOfSatisfying(ValidationResult.Failed.class,
                f -> assertThat(f.has(Cause.MIRROR)).isTrue());
        assertThat(ack.getStream()).isEqualTo("ORIGIN");
        assertThat(classifier("COPY").checkAck(ack)).hasValueSatisfying(
                c -> assertThat(c.outcome().cause()).isEqualTo(Outcome.Cause.UNEXPECTED_STREAM));
    }

    @Test
    void aSourcedStreamWithItsOwnSubjectsPassesValidationAndStoresPublishes() throws Exception {
        createStream("UPSTREAM", c -> c);
        // The window is explicit: from 2.15.1 a stream with sources has none by default (below).
        jsm.addStream(StreamConfiguration.builder().name("GATHER").subjects("gather.>")
                .sources(Source.builder().sourceName("UPSTREAM").build()).duplicateWindow(WINDOW).build());

        ValidationResult result = validator("GATHER", "gather.events").validate(facts("GATHER"));
        PublishAck ack = publish("gather.events", options().expectedStream("GATHER").build());

        assertThat(result.passed()).isTrue();
        assertThat(ack.getStream()).isEqualTo("GATHER");
        assertThat(classifier("GATHER").checkAck(ack)).isEmpty();
    }

    @Test
    void aSourcedStreamWithoutItsOwnWindowFailsValidationWhetherOrNotItDedupes() throws Exception {
        createStream("FEED", c -> c);
        jsm.addStream(StreamConfiguration.builder().name("NO_WINDOW").subjects("no_window")
                .sources(Source.builder().sourceName("FEED").build()).build());

        StreamFacts facts = facts("NO_WINDOW");
        PublishAck first = publish("no_window", options().messageId("X").build());
        PublishAck again = publish("no_window", options().messageId("X").build());

        if (VERSION.atLeast(AFTER_2_10)) {
            // 2.15.1 gives a stream with sources no default window: none is reported and the same
            // msg id is stored twice.
            assertThat(facts.duplicateWindow()).isEqualTo(Duration.ZERO);
            assertThat(again.isDuplicate()).isFalse();
            assertThat(again.getSeqno()).isEqualTo(first.getSeqno() + 1);
        } else {
            // 2.9.10 and 2.10.27 give it the usual 2 min default, and dedupe within it.
            assertThat(facts.duplicateWindow()).isEqualTo(Duration.ofMinutes(2));
            assertThat(again.isDuplicate()).isTrue();
            assertThat(again.getSeqno()).isEqualTo(first.getSeqno());
        }
        // Either way below what a 30 s ack timeout needs: validation refuses it, as it must for 0 s.
        assertThat(validator("NO_WINDOW", "no_window").validate(facts)).isInstanceOfSatisfying(
                ValidationResult.Failed.class, f -> assertThat(f.has(Cause.DUPLICATE_WINDOW_TOO_SMALL)).isTrue());
    }

    @Test
    void aSubjectTransformIsAppliedFrom210AndDroppedBy29() throws Exception {
        StreamInfo created = jsm.addStream(StreamConfiguration.builder().name("MOVE").subjects("move.>")
                .subjectTransform(SubjectTransform.builder().source("move.>").destination("moved.>").build())
                .duplicateWindow(WINDOW).build());

        PublishAck ack = publish("move.a", options().expectedStream("MOVE").build());
        String storedSubject = Streams.readFromLeader(conn, "MOVE").get(0).subject();

        // Validation reads the subjects filter, which the transform leaves alone: it passes everywhere.
        assertThat(validator("MOVE", "move.a").validate(facts("MOVE")).passed()).isTrue();
        assertThat(classifier("MOVE").checkAck(ack)).isEmpty();
        if (VERSION.atLeast("2.10.0")) {
            assertThat(created.getConfiguration().getSubjectTransform()).isNotNull();
            assertThat(storedSubject).isEqualTo("moved.a");
        } else {
            // 2.9.10 does not know subject_transform: it accepts the config, drops the field silently
            // and stores the message on the subject it was published to.
            assertThat(created.getConfiguration().getSubjectTransform()).isNull();
            assertThat(storedSubject).isEqualTo("move.a");
        }
    }

    /** Stream fields newer servers added, each with the release that brought it. */
    enum NewerField {
        ALLOW_MSG_TTL("2.11.0", StreamConfiguration.Builder::allowMessageTtl, StreamConfiguration::getAllowMessageTtl),
        ALLOW_ATOMIC("2.12.0", StreamConfiguration.Builder::allowAtomicPublish, StreamConfiguration::getAllowAtomicPublish),
        ALLOW_BATCHED("2.14.0", StreamConfiguration.Builder::allowBatched, StreamConfiguration::getAllowBatched);

        final String since;
        final UnaryOperator<StreamConfiguration.Builder> set;
        final Predicate<StreamConfiguration> isSet;

        NewerField(String since, UnaryOperator<StreamConfiguration.Builder> set,
                   Predicate<StreamConfiguration> isSet) {
            this.since = since;
            this.set = set;
            this.isSet = isSet;
        }
    }

    @ParameterizedTest
    @EnumSource(NewerField.class)
    void aNewerAllowFieldIsKeptByServersThatKnowItAndDroppedSilentlyByOlderOnes(NewerField field) throws Exception {
        String stream = field.name();
        String subject = field.name().toLowerCase();

        StreamInfo created = jsm.addStream(field.set.apply(StreamConfiguration.builder().name(stream).subjects(subject)
                .duplicateWindow(WINDOW)).build());
        PublishAck ack = publish(subject, options().messageId("one").expectedStream(stream).build());

        // An older server neither refuses the field nor keeps it: the config it answers lacks it.
        assertThat(field.isSet.test(created.getConfiguration())).isEqualTo(VERSION.atLeast(field.since));
        assertThat(field.isSet.test(jsm.getStreamInfo(stream).getConfiguration())).isEqualTo(VERSION.atLeast(field.since));
        // None of them changes a plain publish, and validation does not look at them.
        assertThat(ack.getSeqno()).isEqualTo(1);
        assertThat(classifier(stream).checkAck(ack)).isEmpty();
        assertThat(validator(stream, subject).validate(facts(stream)).passed()).isTrue();
    }

    @Test
    void asyncPersistModeIsAnR1OptionThatValidationWarnsAbout() throws Exception {
        StreamInfo created = jsm.addStream(StreamConfiguration.builder().name("ASYNC").subjects("async")
                .persistMode(PersistMode.Async).duplicateWindow(WINDOW).build());
        PublishAck ack = publish("async", options().expectedStream("ASYNC").build());
        ValidationResult result = validator("ASYNC", "async").validate(facts("ASYNC"));

        assertThat(ack.getSeqno()).isEqualTo(1);
        if (VERSION.atLeast("2.12.0")) {
            // 2.12 added persist_mode: async, which acknowledges before the write is persisted (R1
            // only; an R3 stream with it is refused with 10052): validation passes it with advice.
            assertThat(created.getConfiguration().getPersistMode()).isEqualTo(PersistMode.Async);
            assertThat(result).isInstanceOfSatisfying(ValidationResult.Passed.class, p -> assertThat(p.advice())
                    .anyMatch(a -> a.contains("persist_mode async")).anyMatch(a -> a.contains("1 replica(s)")));
        } else {
            // Older servers drop the field silently: the stream is an ordinary synchronous one.
            assertThat(created.getConfiguration().getPersistMode()).isNotEqualTo(PersistMode.Async);
            assertThat(result).isInstanceOfSatisfying(ValidationResult.Passed.class, p -> assertThat(p.advice())
                    .noneMatch(a -> a.contains("persist_mode")));
        }
    }

    @Test
    void aCounterStreamRefusesOrdinaryPublishesAndFailsValidation() throws Exception {
        StreamInfo created = jsm.addStream(StreamConfiguration.builder().name("COUNTS").subjects("counts")
                .allowMessageCounter(true).duplicateWindow(WINDOW).build());
        ValidationResult result = validator("COUNTS", "counts").validate(facts("COUNTS"));
        if (VERSION.atLeast("2.12.0")) {
            // 2.12 counter streams take only counter increments: an event would be refused for ever
            assertThat(created.getConfiguration().getAllowMessageCounter()).isTrue();
            JetStreamApiException refused = org.junit.jupiter.api.Assertions.assertThrows(JetStreamApiException.class,
                    () -> publish("counts", options().messageId("c1").expectedStream("COUNTS").build()));
            assertThat(refused.getErrorCode()).isEqualTo(400);
            assertThat(result).isInstanceOfSatisfying(ValidationResult.Failed.class,
                    f -> assertThat(f.has(ValidationResult.Cause.COUNTER)).isTrue());
        } else {
            // Older servers drop the field silently and store the publish like any other
            assertThat(created.getConfiguration().getAllowMessageCounter()).isFalse();
            assertThat(publish("counts", options().messageId("c1").expectedStream("COUNTS").build()).getSeqno())
                    .isEqualTo(1);
            assertThat(result.passed()).isTrue();
        }
    }

    // Ack replies

    @Test
    void theAckOfANewMessageNamesStreamSequenceAndDomain() throws Exception {
        createStream("ACKS", c -> c.duplicateWindow(WINDOW));
        publish("acks", options().build());

        PublishAck ack = publish("acks", options().messageId("new").expectedStream("ACKS").build());

        assertThat(ack.getStream()).isEqualTo("ACKS");
        assertThat(ack.getSeqno()).isEqualTo(2);
        assertThat(ack.isDuplicate()).isFalse();
        assertThat(ack.getDomain()).isEqualTo(DOMAIN);
        assertThat(ack.getJv().toJson()).isEqualTo("{\"stream\":\"ACKS\",\"seq\":2,\"domain\":\"hub\"}");
        assertThat(classifier("ACKS").checkAck(ack)).isEmpty();
    }

    @Test
    void theAckOfADuplicateCarriesTheOriginalSequence() throws Exception {
        createStream("DUP_ACKS", c -> c.duplicateWindow(WINDOW));
        publish("dup_acks", options().messageId("X").build());
        publish("dup_acks", options().build());

        PublishAck ack = publish("dup_acks", options().messageId("X").expectedStream("DUP_ACKS").build());

        assertThat(ack.isDuplicate()).isTrue();
        assertThat(ack.getSeqno()).isEqualTo(1);
        assertThat(ack.getStream()).isEqualTo("DUP_ACKS");
        assertThat(ack.getDomain()).isEqualTo(DOMAIN);
        assertThat(classifier("DUP_ACKS").checkAck(ack)).isEmpty();
        assertThat(classifier("DUP_ACKS").checkAckStream(ack.getStream())).isEmpty();
        assertThat(Streams.state(conn, "DUP_ACKS").getMsgCount()).isEqualTo(2);
    }

    @Test
    void anAckFromAnotherStreamIsTheUnexpectedStreamCase() throws Exception {
        createStream("ELSEWHERE", c -> c);

        // Without expectedStream the server stores and acknowledges; only jetsink's ack check notices.
        PublishAck ack = publish("elsewhere", options().build());

        assertThat(classifier("CONFIGURED").checkAck(ack)).hasValueSatisfying(c -> {
            assertThat(c.outcome().cause()).isEqualTo(Outcome.Cause.UNEXPECTED_STREAM);
            assertThat(c.outcome().detail()).isEqualTo("unexpected stream ELSEWHERE");
            assertThat(c.resetsVerdict()).isTrue();
        });
    }

    // The duplicate window across a leader change

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    @Test
    void aStoredMsgIdIsADuplicateAfterLeaderStepDownAndLeaderLoss() throws Exception {
        try (NatsCluster cluster = NatsCluster.start();
             Connection c = Nats.connect(new Options.Builder().servers(cluster.urlArray()).maxReconnects(-1)
                     .reconnectWait(Duration.ofMillis(100)).build())) {
            c.jetStreamManagement().addStream(StreamConfiguration.builder().name("R3").subjects("r3")
                    .replicas(NatsCluster.SIZE).duplicateWindow(WINDOW).build());
            JetStream r3 = c.jetStream();
            OutcomeClassifier classifier = classifier("R3");

            PublishAck first = r3.publish("r3", PAYLOAD, options().messageId("X").expectedStream("R3").build());
            int leader = cluster.streamLeader("R3");
            c.request("$JS.API.STREAM.LEADER.STEPDOWN.R3", new byte[0], Duration.ofSeconds(5));
            PublishAck afterStepDown = publishUntilAcked(r3, classifier, "X");
            int stepped = awaitNewLeader(cluster, leader);
            cluster.kill(stepped);
            PublishAck afterLoss = publishUntilAcked(r3, classifier, "X");
            awaitNewLeader(cluster, stepped);

            assertThat(first.isDuplicate()).isFalse();
            assertThat(first.getDomain()).as("no domain configured on the cluster").isNull();
            for (PublishAck ack : List.of(afterStepDown, afterLoss)) {
                assertThat(ack.isDuplicate()).isTrue();
                assertThat(ack.getSeqno()).isEqualTo(first.getSeqno());
                assertThat(classifier.checkAck(ack)).isEmpty();
            }
            assertThat(Streams.readFromLeader(c, "R3")).hasSize(1);
        }
    }

    /** Waits until {@code stream R3} is led by a node other than {@code previous}. */
    private static int awaitNewLeader(NatsCluster cluster, int previous) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                int now = cluster.streamLeader("R3");
                if (now != previous) {
                    return now;
                }
            } catch (IllegalStateException stillElecting) {
                // streamLeader gave up for now; ask again
            }
            Thread.sleep(100);
        }
        throw new AssertionError("stream R3 still led by node " + previous + " after 30 s");
    }

    /**
     * Re-publishes msg id {@code msgId} until it is acknowledged; every failure on the way (the
     * leader change in progress) must be one jetsink retries. Seen on all three versions: "503 No
     * Responders" for ~0.15 s after a step-down, and for 5-12 s after the leader is killed, mixed
     * with ack timeouts on 2.9.10 and 2.10.27.
     */
    private static PublishAck publishUntilAcked(JetStream r3, OutcomeClassifier classifier, String msgId)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        List<String> failures = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            try {
                return r3.publish("r3", PAYLOAD, options().messageId(msgId).expectedStream("R3").build());
            } catch (IOException | JetStreamApiException | IllegalStateException e) {
                Outcome outcome = classifier.classify(e).outcome();
                assertThat(outcome.family()).as("%s during a leader change", e).isEqualTo(Family.TRANSIENT);
                failures.add(outcome.detail());
                Thread.sleep(100);
            }
        }
        throw new AssertionError("msg id " + msgId + " not acknowledged within 30 s; failures: " + failures);
    }

    // Helpers

    private static PublishOptions.Builder options() {
        return PublishOptions.builder().streamTimeout(Duration.ofSeconds(5));
    }

    /** Creates stream {@code name} capturing {@code lower(name)} and {@code lower(name).>}. */
    private static void createStream(String name, UnaryOperator<StreamConfiguration.Builder> more) throws Exception {
        String subject = name.toLowerCase();
        jsm.addStream(more.apply(StreamConfiguration.builder().name(name).subjects(subject, subject + ".>")).build());
    }

    private static PublishAck publish(String subject, PublishOptions options) throws Exception {
        return js.publish(subject, PAYLOAD, options);
    }

    private static JetStreamApiException rejection(String subject, PublishOptions options) {
        return catchRejection(() -> js.publish(subject, PAYLOAD, options));
    }

    private static JetStreamApiException catchRejection(Publish publish) {
        JetStreamApiException e = catchRejectionOrAck(publish);
        if (e == null) {
            fail("the publish was acknowledged");
        }
        return e;
    }

    /** The API error the publish failed with, or null if it was acknowledged. */
    private static JetStreamApiException catchRejectionOrAck(Publish publish) {
        try {
            publish.run();
            return null;
        } catch (JetStreamApiException e) {
            return e;
        } catch (IOException e) {
            throw new AssertionError("expected an API error, got " + e, e);
        }
    }

    private static void assertApiError(JetStreamApiException e, int status, int apiCode) {
        assertThat(e.getErrorCode()).as("status of %s", e).isEqualTo(status);
        assertThat(e.getApiErrorCode()).as("err_code of %s", e).isEqualTo(apiCode);
    }

    private static void assertOutcome(Classified classified, Family family, Outcome.Cause cause, int apiCode) {
        Outcome outcome = classified.outcome();
        assertThat(outcome.family()).as("family of %s", outcome).isEqualTo(family);
        assertThat(outcome.cause()).as("cause of %s", outcome).isEqualTo(cause);
        assertThat(outcome.apiErrorCode()).isEqualTo(OptionalInt.of(apiCode));
    }

    private static OutcomeClassifier classifier(String stream) {
        return OutcomeClassifier.forJetStream(stream);
    }

    private static StreamValidator validator(String stream, String subject) {
        return new StreamValidator(stream, subject, ACK_TIMEOUT_SECS);
    }

    private static StreamFacts facts(String stream) throws Exception {
        return StreamFacts.from(jsm.getStreamInfo(stream));
    }

    @FunctionalInterface
    private interface Publish {
        PublishAck run() throws IOException, JetStreamApiException;
    }
}

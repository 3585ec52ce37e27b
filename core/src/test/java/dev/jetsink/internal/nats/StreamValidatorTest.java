package dev.jetsink.internal.nats;

import dev.jetsink.internal.nats.StreamFacts.Storage;
import dev.jetsink.internal.nats.ValidationResult.Cause;
import dev.jetsink.internal.nats.ValidationResult.Failed;
import dev.jetsink.internal.nats.ValidationResult.Passed;
import dev.jetsink.lifecycle.Outcome;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StreamValidatorTest {

    private static final String STREAM = "RUSTFS_EVENTS";
    private static final String SUBJECT = "rustfs.events";

    private final StreamValidator at30 = new StreamValidator(STREAM, SUBJECT, 30);

    /** A stream that meets every requirement and draws no advice. */
    private static StreamFacts good() {
        return new StreamFacts(STREAM, List.of(SUBJECT), false, false, false, Duration.ofSeconds(274), 3,
                Storage.FILE, -1);
    }

    @Test
    void wellProvisionedStreamPassesWithoutAdvice() {
        assertThat(at30.validate(good())).isEqualTo(new Passed(List.of()));
    }

    @Test
    void windowOf274SecondsPassesAtAckTimeout30() {
        assertThat(at30.validate(withWindow(274)).passed()).isTrue();
    }

    @Test
    void windowOf273SecondsFailsAtAckTimeout30() {
        Failed failed = (Failed) at30.validate(withWindow(273));
        assertThat(failed.has(Cause.DUPLICATE_WINDOW_TOO_SMALL)).isTrue();
        assertThat(failed.message()).isEqualTo("duplicate window 273s is below the required 274s for ack timeout 30s");
    }

    @Test
    void windowOf724SecondsPassesAtAckTimeout120AndOf723Fails() {
        StreamValidator at120 = new StreamValidator(STREAM, SUBJECT, 120);
        assertThat(at120.validate(withWindow(724)).passed()).isTrue();
        assertThat(((Failed) at120.validate(withWindow(723))).message())
                .isEqualTo("duplicate window 723s is below the required 724s for ack timeout 120s");
    }

    @Test
    void defaultTwoMinuteWindowFailsAtAckTimeout30() {
        assertThat(((Failed) at30.validate(withWindow(120))).has(Cause.DUPLICATE_WINDOW_TOO_SMALL)).isTrue();
    }

    @Test
    void aCounterStreamFailsValidationItRefusesOrdinaryPublishes() {
        Failed failed = (Failed) at30.validate(new StreamFacts(STREAM, List.of(SUBJECT), false, false, false,
                Duration.ofSeconds(300), 3, Storage.FILE, -1, true, false));
        assertThat(failed.problems()).extracting(ValidationResult.Problem::cause).containsExactly(Cause.COUNTER);
        assertThat(failed.message()).contains("allow_msg_counter");
    }

    @Test
    void anAsynchronousPersistModePassesWithAdviceTheAckComesBeforeTheWrite() {
        Passed passed = (Passed) at30.validate(new StreamFacts(STREAM, List.of(SUBJECT), false, false, false,
                Duration.ofSeconds(300), 1, Storage.FILE, -1, false, true));
        assertThat(passed.advice()).anyMatch(a -> a.contains("persist_mode async"));
    }

    @Test
    void sealedStreamFailsValidation() {
        Failed failed = (Failed) at30.validate(new StreamFacts(STREAM, List.of(SUBJECT), false, true, false,
                Duration.ofSeconds(300), 3, Storage.FILE, -1));
        assertThat(failed.has(Cause.SEALED)).isTrue();
        assertThat(failed.message()).isEqualTo("stream RUSTFS_EVENTS is sealed");
    }

    @Test
    void noAckStreamFailsValidation() {
        Failed failed = (Failed) at30.validate(new StreamFacts(STREAM, List.of(SUBJECT), true, false, false,
                Duration.ofSeconds(300), 3, Storage.FILE, -1));
        assertThat(failed.problems()).extracting(ValidationResult.Problem::cause).containsExactly(Cause.NO_ACK);
        assertThat(failed.message()).contains("no_ack");
    }

    @Test
    void mirrorStreamFailsValidationBecauseItAcceptsNoPublishes() {
        Failed failed = (Failed) at30.validate(new StreamFacts(STREAM, List.of(SUBJECT), false, false, true,
                Duration.ofSeconds(300), 3, Storage.FILE, -1));
        assertThat(failed.problems()).extracting(ValidationResult.Problem::cause).containsExactly(Cause.MIRROR);
        assertThat(failed.message()).isEqualTo("stream RUSTFS_EVENTS is a mirror and accepts no publishes");
    }

    @Test
    void streamThatDoesNotCaptureTheSubjectFailsValidation() {
        Failed failed = (Failed) at30.validate(new StreamFacts(STREAM, List.of("other.>", "rustfs.*.put"), false,
                false, false, Duration.ofSeconds(300), 3, Storage.FILE, -1));
        assertThat(failed.problems()).extracting(ValidationResult.Problem::cause)
                .containsExactly(Cause.SUBJECT_NOT_CAPTURED);
        assertThat(failed.message()).isEqualTo(
                "stream RUSTFS_EVENTS does not capture subject rustfs.events (subjects: other.>, rustfs.*.put)");
    }

    @Test
    void streamCapturingTheSubjectByWildcardPasses() {
        assertThat(at30.validate(new StreamFacts(STREAM, List.of("audit.x", "rustfs.>"), false, false, false,
                Duration.ofSeconds(300), 3, Storage.FILE, -1)).passed()).isTrue();
    }

    @Test
    void everyFailedRequirementIsReportedInOneResult() {
        Failed failed = (Failed) at30.validate(new StreamFacts(STREAM, List.of("other"), true, true, true,
                Duration.ofSeconds(120), 1, Storage.MEMORY, -1));
        assertThat(failed.problems()).extracting(ValidationResult.Problem::cause).containsExactly(
                Cause.MIRROR, Cause.SUBJECT_NOT_CAPTURED, Cause.NO_ACK, Cause.SEALED, Cause.DUPLICATE_WINDOW_TOO_SMALL);
    }

    @Test
    void singleReplicaStreamPassesWithAdvice() {
        Passed passed = (Passed) at30.validate(new StreamFacts(STREAM, List.of(SUBJECT), false, false, false,
                Duration.ofSeconds(300), 1, Storage.FILE, -1));
        assertThat(passed.advice()).singleElement().asString().contains("1 replica").contains("fewer than 3");
    }

    @Test
    void memoryStoragePassesWithAdvice() {
        Passed passed = (Passed) at30.validate(new StreamFacts(STREAM, List.of(SUBJECT), false, false, false,
                Duration.ofSeconds(300), 3, Storage.MEMORY, -1));
        assertThat(passed.advice()).singleElement().asString().contains("memory storage");
    }

    @Test
    void missingStreamIsAFailureNamingTheStream() {
        Failed failed = at30.streamMissing();
        assertThat(failed.has(Cause.STREAM_NOT_FOUND)).isTrue();
        assertThat(failed.message()).isEqualTo("stream RUSTFS_EVENTS not found");
    }

    @Test
    void unreachableStreamIsAFailureWithAVocabularyDetail() {
        Failed failed = at30.unreachable(Classified.transientOf(Outcome.Cause.PUBLISH_TIMED_OUT).outcome());
        assertThat(failed.has(Cause.UNREACHABLE)).isTrue();
        assertThat(failed.message()).isEqualTo("stream RUSTFS_EVENTS could not be looked up: publish timed out");
    }

    @Test
    void failedLookupWithStreamNotFoundMeansTheStreamIsMissing() {
        Outcome notFound = OutcomeClassifier.forJetStream(STREAM).classify(OutcomeClassifierTest.api(404, 10059)).outcome();
        assertThat(at30.lookupFailed(notFound).has(Cause.STREAM_NOT_FOUND)).isTrue();
    }

    @Test
    void failedLookupForAnyOtherReasonMeansTheStreamIsUnreachable() {
        Outcome noResponders = OutcomeClassifier.forJetStream(STREAM).classify(
                new java.io.IOException("Error Publishing: 503 No Responders Available For Request")).outcome();
        Failed failed = at30.lookupFailed(noResponders);
        assertThat(failed.has(Cause.UNREACHABLE)).isTrue();
        assertThat(failed.message()).isEqualTo("stream RUSTFS_EVENTS could not be looked up: no responders");
    }

    private static StreamFacts withWindow(long seconds) {
        StreamFacts g = good();
        return new StreamFacts(g.name(), g.subjects(), g.noAck(), g.sealed(), g.mirror(), Duration.ofSeconds(seconds),
                g.replicas(), g.storage(), g.maxMessageSize());
    }
}

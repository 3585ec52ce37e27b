package dev.jetsink.internal.targets;

import ch.qos.logback.classic.Level;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.publish.StreamCheck;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.Outcome;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stream requirements (DESIGN.md "Stream validation and verdict") against real streams: a
 * stream that fails one keeps every entry queued (nothing published, nothing in the failed store)
 * with an error naming the cause, and the entries deliver once the operator repairs the stream.
 */
@Tag("broker")
class StreamValidationTest {

    private static final Duration WINDOW = Duration.ofSeconds(274);

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void streamThatDoesNotCaptureTheSubjectKeepsEntriesQueued(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            keepsEntriesQueuedUntilRepaired(h, kind, h.jetStreamEnv(kind),
                StreamSpec.of(TargetHarness.STREAM, "rustfs.other").duplicateWindow(WINDOW).build(),
                StreamSpec.of(TargetHarness.STREAM, "rustfs.*").duplicateWindow(WINDOW).build(),
                "stream EVENTS does not capture subject rustfs.events (subjects: rustfs.other)");
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void subjectCapturedByAnotherStreamIsNamedInTheErrorAndGetsNoCopy(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness(); CapturedLog logs = CapturedLog.of(StreamCheck.class)) {
            h.createStream(StreamSpec.of(TargetHarness.STREAM, "rustfs.other").duplicateWindow(WINDOW).build());
            h.createStream(StreamSpec.of("CAPTURING", TargetHarness.SUBJECT).duplicateWindow(WINDOW).build());
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(kind)));
            assertThat(logs.at(Level.ERROR)).anySatisfy(line -> assertThat(line)
                .startsWith("JetStream stream validation failed target=\"" + t.displayId() + "\" stream=EVENTS")
                .contains("stream EVENTS does not capture subject rustfs.events (subjects: rustfs.other); "
                    + "subject rustfs.events is captured by stream CAPTURING instead"));

            TargetHarness.sendAll(t, kind, 0, 3);
            h.events.awaitCount(LifecycleEvent.AttemptFailed.class,
                e -> e.outcome().cause() == Outcome.Cause.STREAM_VALIDATION_FAILED, 1, TargetHarness.AWAIT);
            assertThat(t.queueLength()).isEqualTo(3);
            assertThat(Streams.readAll(h.admin(), "CAPTURING")).as("the capturing stream gets no copy").isEmpty();

            Streams.delete(h.admin(), "CAPTURING");
            Streams.update(h.admin(), TargetHarness.STREAM, b -> b.subjects(TargetHarness.SUBJECT));
            h.sleeper.awaitPending(Duration.ofSeconds(4), TargetHarness.AWAIT);
            h.sleeper.advance(Duration.ofSeconds(4));
            h.awaitDrained(t, Duration.ofSeconds(60));
            assertThat(h.readStream()).hasSize(3);
            assertThat(t.failedStore().orElseThrow().count()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void streamMissingWhileAnotherCapturesTheSubjectNamesIt(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness(); CapturedLog logs = CapturedLog.of(StreamCheck.class)) {
            h.createStream(StreamSpec.of("CAPTURING", TargetHarness.SUBJECT).duplicateWindow(WINDOW).build());
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(kind)));
            assertThat(logs.at(Level.ERROR)).anySatisfy(line -> assertThat(line)
                .contains("stream EVENTS not found; subject rustfs.events is captured by stream CAPTURING instead"));
            assertThat(t.initFailure()).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void noAckStreamKeepsEntriesQueued(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            keepsEntriesQueuedUntilRepaired(h, kind, h.jetStreamEnv(kind),
                StreamSpec.of(TargetHarness.STREAM, TargetHarness.SUBJECT).noAck(true).duplicateWindow(WINDOW).build(),
                StreamSpec.of(TargetHarness.STREAM, TargetHarness.SUBJECT).duplicateWindow(WINDOW).build(),
                "stream EVENTS has no_ack set");
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void duplicateWindowOf273SecondsFailsAtAckTimeout30(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            keepsEntriesQueuedUntilRepaired(h, kind, ackTimeout30(h, kind),
                StreamSpec.of(TargetHarness.STREAM, TargetHarness.SUBJECT).duplicateWindow(Duration.ofSeconds(273)).build(),
                StreamSpec.of(TargetHarness.STREAM, TargetHarness.SUBJECT).duplicateWindow(WINDOW).build(),
                "duplicate window 273s is below the required 274s for ack timeout 30s");
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void duplicateWindowOf274SecondsPassesAtAckTimeout30(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness(); CapturedLog logs = CapturedLog.of(StreamCheck.class)) {
            h.createStream(StreamSpec.of(TargetHarness.STREAM, TargetHarness.SUBJECT).duplicateWindow(WINDOW).build());
            NatsTarget t = h.start(TargetHarness.config(ackTimeout30(h, kind)));
            assertThat(t.verdictPass()).isTrue();
            assertThat(logs.at(Level.INFO)).containsExactly(
                "JetStream stream validation succeeded target=\"" + t.displayId() + "\" stream=EVENTS");
            assertThat(logs.at(Level.ERROR)).isEmpty();

            TargetHarness.sendAll(t, kind, 0, 5);
            h.awaitResolved(5);
            assertThat(h.events.all(LifecycleEvent.AttemptFailed.class)).isEmpty();
            assertThat(h.readStream()).hasSize(5);
            assertThat(logs.at(Level.INFO)).as("logged once per verdict").hasSize(1);
        }
    }

    private static Map<String, String> ackTimeout30(TargetHarness h, TargetKind kind) {
        Map<String, String> env = h.jetStreamEnv(kind);
        env.put(kind.envPrefix() + "JETSTREAM_ACK_TIMEOUT_SECS", "30");
        return env;
    }

    /**
     * Starts a target on {@code flawed}, checks the error names {@code cause} and that entries stay
     * queued through failed attempts, then repairs the stream and checks they deliver.
     */
    private static void keepsEntriesQueuedUntilRepaired(TargetHarness h, TargetKind kind, Map<String, String> env,
                                                        StreamSpec flawed, StreamSpec repaired, String cause)
            throws Exception {
        try (CapturedLog logs = CapturedLog.of(StreamCheck.class)) {
            h.createStream(flawed);
            NatsTarget t = h.start(TargetHarness.config(env));
            String failureLine = "JetStream stream validation failed target=\"" + t.displayId() + "\" stream=EVENTS";
            assertThat(logs.at(Level.ERROR)).anySatisfy(line -> assertThat(line).startsWith(failureLine).contains(cause));
            assertThat(t.initFailure()).as("only a sealed stream fails init").isEmpty();
            assertThat(t.verdictPass()).isFalse();

            TargetHarness.sendAll(t, kind, 0, 3);
            LifecycleEvent.AttemptFailed failed = h.events.await(LifecycleEvent.AttemptFailed.class, e -> true,
                TargetHarness.AWAIT);
            assertThat(failed.outcome().cause()).isEqualTo(Outcome.Cause.STREAM_VALIDATION_FAILED);
            assertThat(failed.outcome().isTransient()).isTrue();
            // A second attempt (after the injected backoff) fails the same way: still queued.
            h.sleeper.awaitPending(Duration.ofSeconds(4), TargetHarness.AWAIT);
            h.sleeper.advance(Duration.ofSeconds(4));
            h.events.awaitCount(LifecycleEvent.AttemptFailed.class, e -> true, 2, TargetHarness.AWAIT);
            assertThat(t.queueLength()).isEqualTo(3);
            assertThat(Streams.state(h.admin(), TargetHarness.STREAM).getMsgCount()).as("nothing published").isZero();
            assertThat(t.failedStore().orElseThrow().count()).isZero();
            assertThat(logs.at(Level.ERROR)).filteredOn(line -> line.startsWith(failureLine) && line.contains(cause))
                .as("each failed validation logs its cause").hasSizeGreaterThanOrEqualTo(2);
            assertThat(logs.at(Level.INFO)).isEmpty();

            Streams.delete(h.admin(), TargetHarness.STREAM);
            h.createStream(repaired);
            h.awaitDrained(t, Duration.ofSeconds(60));
            assertThat(logs.at(Level.INFO)).contains(
                "JetStream stream validation succeeded target=\"" + t.displayId() + "\" stream=EVENTS");
            List<StoredMessage> stored = h.readStream();
            assertThat(stored).hasSize(3);
            assertThat(t.failedStore().orElseThrow().count()).isZero();
        }
    }
}

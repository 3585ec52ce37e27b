package dev.jetsink.internal.targets;

import ch.qos.logback.classic.Level;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.Outcome;
import dev.jetsink.lifecycle.ResetReason;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stream reconfigured under a running target (unexpected stream, verdict resets:
 * DESIGN.md "Stream validation and verdict"), against a real nats-server, for notify and audit
 * alike.
 */
@Tag("broker")
class StreamChangeTest {

    private static final String CAPTURING = "CAPTURE";
    private static final String WARNING = "JetStream publish acknowledged by an unexpected stream";

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void anotherStreamCapturingTheSubjectRejectsPublishesWithoutAStrayCopy(TargetKind kind) throws Exception {
        int inFlight = 200;
        try (TargetHarness h = new TargetHarness(); CapturedLog logs = new CapturedLog()) {
            h.createDefaultStream();
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(kind)));
            TargetHarness.sendAll(t, kind, 0, 1);
            h.awaitResolved(1);
            moveSubjectToCapturingStream(h);

            // Frozen, the server answers nothing: these publishes all go out on the cached PASS.
            long before = t.dispatcher().orElseThrow().attemptsStarted();
            h.server.pause();
            try {
                sendTogether(t, kind, 1, inFlight);
                // Several publishes out before the server hears any: it cannot answer while frozen.
                TargetHarness.awaitAttemptsStarted(t, before + 2);
            } finally {
                h.server.resume();
            }
            LifecycleEvent.ProbeModeEntered probe = h.events.await(LifecycleEvent.ProbeModeEntered.class,
                e -> true, TargetHarness.AWAIT);
            // The probe's next attempt validates live and fails: the subject is not the stream's any more.
            h.sleeper.awaitPending(Duration.ofSeconds(4), TargetHarness.AWAIT);
            h.sleeper.advance(Duration.ofSeconds(4));
            h.events.await(LifecycleEvent.AttemptFailed.class, e -> e.msgId().equals(probe.probeMsgId())
                && e.outcome().cause() == Outcome.Cause.STREAM_VALIDATION_FAILED, TargetHarness.AWAIT);

            long rejected = h.events.all(LifecycleEvent.AttemptFailed.class).stream()
                .filter(e -> e.outcome().cause() == Outcome.Cause.UNEXPECTED_STREAM
                    && e.outcome().apiErrorCode().orElse(0) == 10060)
                .count();
            assertThat(rejected).as("several publishes in flight were rejected with 10060").isGreaterThan(1);
            List<String> warnings = logs.lines(Level.WARN, WARNING);
            assertThat(warnings).as("one warning per PASS period, not one per publish").hasSize(1);
            assertThat(warnings.get(0)).contains("stream=" + TargetHarness.STREAM, "capturing_stream=" + CAPTURING);
            assertThat(h.events.all(LifecycleEvent.VerdictChanged.class).stream()
                .filter(e -> e.reason().equals(Optional.of(ResetReason.UNEXPECTED_STREAM))))
                .hasSize(1);
            assertThat(t.verdictPass()).isFalse();
            assertThat(t.queueLength()).as("entries retained").isEqualTo(inFlight);
            assertThat(Streams.readAll(h.admin(), CAPTURING)).as("no stray copy in the other stream").isEmpty();
            assertThat(h.events.all(LifecycleEvent.MovedToFailedStore.class)).isEmpty();
            assertThat(t.counters().failedCount()).isZero();

            // Configuration fixed: the entries deliver, each once, to the configured stream.
            Streams.delete(h.admin(), CAPTURING);
            Streams.update(h.admin(), StreamSpec.of(TargetHarness.STREAM, TargetHarness.SUBJECT)
                .duplicateWindow(Duration.ofSeconds(274)).build());
            h.awaitDrained(t, TargetHarness.AWAIT);
            List<StoredMessage> stored = h.readStream();
            Set<String> ids = stored.stream().map(m -> m.msgId().orElseThrow()).collect(Collectors.toSet());
            assertThat(stored).hasSize(inFlight + 1);
            assertThat(ids).hasSize(inFlight + 1);
            assertThat(t.verdictPass()).isTrue();

            // A new PASS period: the next capture warns once more.
            moveSubjectToCapturingStream(h);
            TargetSends.send(t, TargetHarness.event(kind, inFlight + 1)).join();
            Awaitility.await().atMost(TargetHarness.AWAIT)
                .until(() -> logs.lines(Level.WARN, WARNING).size() == 2);
            assertThat(Streams.readAll(h.admin(), CAPTURING)).isEmpty();
            assertThat(t.queueLength()).isEqualTo(1);
        }
    }

    /** The configured stream stops capturing the subject and a second stream starts to. */
    private static void moveSubjectToCapturingStream(TargetHarness h) throws Exception {
        Streams.update(h.admin(), StreamSpec.of(TargetHarness.STREAM, "elsewhere.events")
            .duplicateWindow(Duration.ofSeconds(274)).build());
        h.createStream(StreamSpec.of(CAPTURING, TargetHarness.SUBJECT).build());
    }

    private static void sendTogether(NatsTarget t, TargetKind kind, int from, int count) {
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            sends.add(TargetSends.send(t, TargetHarness.event(kind, i)));
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).join();
    }
}

package dev.jetsink.internal.targets;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.publish.StreamCheck;
import dev.jetsink.lifecycle.LifecycleEvent.AttemptFailed;
import dev.jetsink.lifecycle.LifecycleEvent.ConnectionChanged;
import dev.jetsink.lifecycle.LifecycleEvent.ConnectionEvent;
import dev.jetsink.lifecycle.LifecycleEvent.EntryResolved;
import dev.jetsink.lifecycle.LifecycleEvent.VerdictChanged;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.Outcome;
import dev.jetsink.lifecycle.ResetReason;
import dev.jetsink.lifecycle.StreamVerdict;
import dev.jetsink.testkit.FaultProxy;
import dev.jetsink.testkit.StoredMessage;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the connection does to delivery (DESIGN.md "Delivery", "Stream validation and verdict"): a
 * reconnect resets the verdict and ends a backoff sleep at once; a connection lost while the stream
 * is being validated costs one retryable attempt and loses nothing.
 */
class ConnectionBehaviourTest {

    private static final int EVENTS = 50;

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void reconnectResetsTheVerdictAndWakesASleepingProbe(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(kind)));
            assertThat(t.verdictPass()).as("validated at init").isTrue();

            h.server.kill();
            h.events.await(ConnectionChanged.class, e -> e.event() == ConnectionEvent.DISCONNECTED, TargetHarness.AWAIT);
            TargetHarness.sendAll(t, kind, 0, EVENTS);
            // The probe failed against the dead server and now sleeps its first backoff step.
            h.sleeper.awaitPending(Duration.ofSeconds(4), TargetHarness.AWAIT);
            assertThat(t.queueLength()).isEqualTo(EVENTS);
            Instant frozen = h.clock.instant();
            int verdictEventsBefore = h.events.all(VerdictChanged.class).size();

            h.server.restart();
            // No sleeper.advance(): only the reconnect can end the 4 s sleep.
            h.awaitResolved(EVENTS);

            assertThat(h.clock.instant()).as("no backoff time passed").isEqualTo(frozen);
            assertThat(t.queueLength()).isZero();
            List<VerdictChanged> verdicts = h.events.all(VerdictChanged.class);
            List<VerdictChanged> since = verdicts.subList(verdictEventsBefore, verdicts.size());
            assertThat(since).as("verdict changes after the restart").hasSizeGreaterThanOrEqualTo(2);
            assertThat(since.get(0).state()).isEqualTo(StreamVerdict.UNSET);
            assertThat(since.get(0).reason()).get()
                .isIn(ResetReason.RECONNECTED, ResetReason.NEW_CONNECTION);
            assertThat(since.get(1).state()).as("re-validated before publishing").isEqualTo(StreamVerdict.PASS);
            assertThat(t.verdictPass()).isTrue();
            assertStreamHoldsEachResolvedEntryOnce(h, EVENTS);
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void connectionDroppedDuringValidationLookupIsRetryableAndKeepsTheEntry(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness();
             FaultProxy proxy = FaultProxy.in(h.server)) {
            Map<String, String> env = h.jetStreamEnv(kind);
            env.put(kind.envPrefix() + "ADDRESS", proxy.url());
            // Stream missing at init: the target runs with an UNSET verdict, so the next attempt
            // starts with a live stream-info lookup.
            NatsTarget t = h.start(TargetHarness.config(env));
            assertThat(t.verdictPass()).isFalse();
            h.createDefaultStream();

            proxy.blackhole();
            TargetHarness.sendAll(t, kind, 0, EVENTS);
            awaitDispatcherInside(t, "StreamCheck", "lookup");
            proxy.reset(); // the stream-info request dies with the connection

            AttemptFailed failed = h.events.await(AttemptFailed.class, e -> true, TargetHarness.AWAIT);
            assertThat(failed.outcome().family()).isEqualTo(Outcome.Family.TRANSIENT);
            assertThat(failed.outcome().cause()).isEqualTo(Outcome.Cause.STREAM_VALIDATION_FAILED);
            assertThat(t.queueLength()).as("every entry kept").isEqualTo(EVENTS);
            assertThat(t.verdictPass()).isFalse();

            proxy.pass();
            h.awaitDrained(t, TargetHarness.AWAIT);

            assertThat(h.events.all(EntryResolved.class)).extracting(EntryResolved::msgId).contains(failed.msgId());
            assertStreamHoldsEachResolvedEntryOnce(h, EVENTS);
            assertNothingFailed(h, t);
        }
    }

    static void assertStreamHoldsEachResolvedEntryOnce(TargetHarness h, int count) throws Exception {
        List<StoredMessage> stored = h.readStream();
        Set<String> resolved = h.events.all(EntryResolved.class).stream().map(EntryResolved::msgId)
            .collect(Collectors.toSet());
        assertThat(stored).as("no duplicates in the stream").hasSize(count);
        assertThat(stored.stream().map(m -> m.msgId().orElseThrow()).collect(Collectors.toSet()))
            .isEqualTo(resolved).hasSize(count);
    }

    static void assertNothingFailed(TargetHarness h, NatsTarget t) {
        assertThat(h.events.all(LifecycleEvent.MovedToFailedStore.class)).isEmpty();
        assertThat(t.counters().failedCount()).isZero();
        assertThat(t.failedStore().orElseThrow().count()).isZero();
        assertThat(Files.exists(FailedEventStore.directory(t.config().queuePath().orElseThrow())))
            .as("no failed/ directory").isFalse();
    }

    /**
     * Waits until the target's dispatcher thread is inside {@code className.method}. The fault must
     * hit while the lookup is outstanding, and nothing but the thread's stack shows that moment.
     */
    static void awaitDispatcherInside(NatsTarget t, String className, String method) {
        String threadName = "jetsink-dispatch-" + t.config().kind().label() + "-" + t.config().sanitizedId();
        Awaitility.await().atMost(TargetHarness.AWAIT).pollInterval(Duration.ofMillis(10)).until(() ->
            Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().equals(threadName))
                .flatMap(e -> Arrays.stream(e.getValue()))
                .anyMatch(f -> f.getClassName().endsWith("." + className) && f.getMethodName().equals(method)));
    }
}

package dev.jetsink.internal.targets;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.Outcome;
import dev.jetsink.testkit.StoredMessage;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The attempt deadline (DESIGN.md "Delivery") against a frozen server (SIGSTOP), ack timeout 10 s:
 * an ack that never comes keeps the entry and the retry reuses its {@code Nats-Msg-Id}; an ack that
 * comes late but within the deadline is accepted with no retry. The deadline is real time by
 * design, so these tests take about 10 s and 7 s per kind.
 */
class AckTimeoutTest {

    private static final Duration FIRST_BACKOFF = Duration.ofSeconds(4);

    // Each case waits out real broker time (a 10 s deadline, a 7 s pause) through code that is the
    // same for both kinds; each kind takes one of them, which keeps both covered at half the time.
    @ParameterizedTest
    @EnumSource(value = TargetKind.class, names = "AUDIT")
    void entryStaysQueuedWhenAckTimesOutAndTheRetryCarriesTheSameMsgId(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(kind)));
            LifecycleEvent.AttemptFailed failed;
            h.server.pause();
            try {
                TargetSends.send(t, TargetHarness.event(kind, 1)).join();
                failed = h.events.await(LifecycleEvent.AttemptFailed.class, e -> true, Duration.ofSeconds(30));
                assertThat(failed.outcome().cause()).isEqualTo(Outcome.Cause.ATTEMPT_DEADLINE_EXCEEDED);
                assertThat(failed.outcome().detail()).isEqualTo("attempt deadline exceeded");
                assertThat(failed.outcome().isTransient()).isTrue();
                assertThat(t.queueLength()).as("the entry stays queued after the deadline").isEqualTo(1);
                // The retry waits on the injected backoff, not on the broker.
                h.sleeper.awaitPending(FIRST_BACKOFF, TargetHarness.AWAIT);
            } finally {
                h.server.resume();
            }
            h.sleeper.advance(FIRST_BACKOFF);

            LifecycleEvent.EntryResolved resolved = h.events.await(LifecycleEvent.EntryResolved.class,
                e -> true, TargetHarness.AWAIT);
            assertThat(resolved.msgId()).isEqualTo(failed.msgId());
            assertThat(resolved.lifetimeAttempts()).isEqualTo(2);
            // The frozen server stored the first publish on resume, before the retry on the same
            // connection: the retry can only be acknowledged as a duplicate of it.
            assertThat(resolved.duplicate()).as("the retry is deduplicated by its msg id").isTrue();
            assertThat(t.queueLength()).isZero();
            assertThat(t.failedStore().orElseThrow().count()).isZero();

            List<StoredMessage> stored = h.readStream();
            assertThat(stored).as("one message in the stream, no duplicate").hasSize(1);
            assertThat(stored.get(0).msgId()).contains(failed.msgId());
        }
    }

    @ParameterizedTest
    @EnumSource(value = TargetKind.class, names = "NOTIFY")
    void serverPausedForSevenSecondsWithAckTimeoutTenIsNotRetried(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(kind)));
            h.server.pause();
            try {
                TargetSends.send(t, TargetHarness.event(kind, 1)).join();
                // Longer than jnats' 5 s request cleanup, shorter than the 10 s deadline: nothing
                // may cut the attempt short (DESIGN.md "Delivery"). Both facts are monotonic while
                // the server is paused (a failed attempt stays recorded, nothing can resolve the
                // entry), so seeing them hold after 7 s proves they held throughout; a loaded
                // machine's scheduling jitter cannot fail the check the way a continuous "during"
                // window can.
                Awaitility.await().pollDelay(Duration.ofSeconds(7)).atMost(Duration.ofSeconds(9))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> h.events.all(LifecycleEvent.AttemptFailed.class).isEmpty() && t.queueLength() == 1);
            } finally {
                h.server.resume();
            }

            LifecycleEvent.EntryResolved resolved = h.events.await(LifecycleEvent.EntryResolved.class,
                e -> true, TargetHarness.AWAIT);
            assertThat(resolved.duplicate()).as("the first publish's own ack").isFalse();
            assertThat(resolved.lifetimeAttempts()).isEqualTo(1);
            assertThat(h.events.all(LifecycleEvent.AttemptFailed.class)).as("no retry").isEmpty();
            assertThat(h.sleeper.pendingDurations()).as("no backoff taken").isEmpty();
            assertThat(t.queueLength()).isZero();

            List<StoredMessage> stored = h.readStream();
            assertThat(stored).hasSize(1);
            assertThat(stored.get(0).msgId()).contains(resolved.msgId());
        }
    }
}

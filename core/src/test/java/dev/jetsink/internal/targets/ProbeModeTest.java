package dev.jetsink.internal.targets;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.lifecycle.LifecycleEvent;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Probe mode (DESIGN.md "Delivery"): an outage costs one probe per backoff step, not a storm of
 * retries.
 */
class ProbeModeTest {

    @Test
    void anOutageRetriesOneProbePerBackoffStepAndTheWindowReopensWhenItSucceeds() throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(TargetKind.NOTIFY)));
            h.server.kill();
            TargetHarness.sendAll(t, TargetKind.NOTIFY, 0, 300);
            LifecycleEvent.ProbeModeEntered entered = h.events.await(LifecycleEvent.ProbeModeEntered.class,
                e -> true, TargetHarness.AWAIT);

            // Walk the probe through its first cycle: 4, 8, 16 and 32 s of injected backoff.
            for (Duration step : List.of(Duration.ofSeconds(4), Duration.ofSeconds(8), Duration.ofSeconds(16),
                    Duration.ofSeconds(32))) {
                h.sleeper.awaitPending(step, TargetHarness.AWAIT);
                h.sleeper.advance(step);
            }
            h.events.await(LifecycleEvent.CycleExhausted.class, e -> e.msgId().equals(entered.probeMsgId()),
                TargetHarness.AWAIT);

            // After the exhaustion the next-oldest entry becomes the probe at once (and may already
            // have failed against the dead server): the only attempts are those of the two probes.
            // Read the failures first: a probe is announced before its first attempt can fail.
            List<LifecycleEvent.AttemptFailed> failed = h.events.all(LifecycleEvent.AttemptFailed.class);
            List<String> probes = h.events.all(LifecycleEvent.ProbeModeEntered.class).stream()
                .map(LifecycleEvent.ProbeModeEntered::probeMsgId).toList();
            assertThat(probes).hasSizeBetween(1, 2);
            // Publishes already in flight when the broker died fail once each (they return to the
            // line with a fresh cycle); only probes are ever retried.
            assertThat(failed).as("only probes were retried during the outage, 300 entries queued")
                .filteredOn(f -> !probes.contains(f.msgId()))
                .allMatch(f -> f.attemptInCycle() == 1)
                .extracting(LifecycleEvent.AttemptFailed::msgId).doesNotHaveDuplicates();
            assertThat(failed).filteredOn(f -> f.msgId().equals(entered.probeMsgId())).hasSize(5);
            assertThat(t.queueLength()).isEqualTo(300);

            h.server.restart();
            h.awaitDrained(t, Duration.ofSeconds(60));
            assertThat(h.readStream()).hasSize(300);
            assertThat(t.counters().failedCount()).as("exhaustion never counts as failed").isZero();
        }
    }
}

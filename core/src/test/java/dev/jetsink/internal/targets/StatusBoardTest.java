package dev.jetsink.internal.targets;

import dev.jetsink.lifecycle.StreamVerdict;
import ch.qos.logback.classic.Level;
import dev.jetsink.internal.config.TargetKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The status view against a real nats-server: a target that delivers says so, an idle
 * one says idle, and a hung broker (SIGSTOP) with entries queued becomes {@code stalled} after
 * 30 s of the injected clock — logged at WARN once when it starts and once when it ends — while
 * {@code /health}'s verdict would still say online.
 */
class StatusBoardTest {

    @Test
    void aHungBrokerWithEntriesQueuedIsStalledAfter30sAndTheStallIsLoggedOnceEachWay() throws Exception {
        try (TargetHarness h = new TargetHarness(); CapturedLog logs = CapturedLog.of(StatusBoard.class)) {
            h.createDefaultStream();
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(TargetKind.NOTIFY)));
            StatusBoard board = new StatusBoard(() -> List.of(t), h.clock);
            TargetHarness.sendAll(t, TargetKind.NOTIFY, 0, 5);
            h.awaitResolved(5);
            assertThat(state(board)).isEqualTo(TargetState.DELIVERING);
            h.clock.advance(Duration.ofSeconds(11));
            assertThat(state(board)).as("nothing queued, no ack for 10 s").isEqualTo(TargetState.IDLE);

            h.server.pause();
            try {
                TargetHarness.sendAll(t, TargetKind.NOTIFY, 5, 3);
                assertThat(state(board)).as("just queued").isEqualTo(TargetState.DELIVERING);
                h.clock.advance(Duration.ofSeconds(29));
                assertThat(state(board)).isEqualTo(TargetState.DELIVERING);
                h.clock.advance(Duration.ofSeconds(2));
                assertThat(state(board)).isEqualTo(TargetState.STALLED);
                assertThat(state(board)).isEqualTo(TargetState.STALLED);
                StatusBoard.TargetStatus s = board.snapshot().get(0);
                assertThat(s.queueLength()).isEqualTo(3);
                assertThat(s.oldestAge()).hasValueSatisfying(age -> assertThat(age).isGreaterThanOrEqualTo(Duration.ofSeconds(31)));
                assertThat(s.since()).isEqualTo(h.clock.instant());
                assertThat(logs.lines(Level.WARN, "target stalled")).as("once when it starts").hasSize(1);
            } finally {
                h.server.resume();
            }
            h.awaitDrained(t, Duration.ofSeconds(60));
            assertThat(state(board)).isEqualTo(TargetState.DELIVERING);
            assertThat(logs.lines(Level.WARN, "target stall ended")).as("once when it ends").hasSize(1);
            assertThat(logs.lines(Level.WARN, "target stalled")).hasSize(1);
            StatusBoard.TargetStatus after = board.snapshot().get(0);
            assertThat(after.verdict()).isEqualTo(StreamVerdict.PASS);
            assertThat(after.queueLength()).isZero();
            assertThat(after.connectedServer()).isPresent();
        }
    }

    @Test
    void statesFollowTheirPrecedence() {
        long now = 1_000_000;
        assertThat(TargetState.of(now, 0, 0, 0, 0, false, 0)).isEqualTo(TargetState.IDLE);
        assertThat(TargetState.of(now, 0, 0, now - 9_000, 0, false, 0)).isEqualTo(TargetState.DELIVERING);
        assertThat(TargetState.of(now, 5, now - 29_000, 0, 0, false, 0)).isEqualTo(TargetState.DELIVERING);
        assertThat(TargetState.of(now, 5, now - 30_000, 0, 0, false, 0)).isEqualTo(TargetState.STALLED);
        assertThat(TargetState.of(now, 5, now - 90_000, now - 1_000, 0, false, 0))
            .as("an old backlog still being acked is delivering").isEqualTo(TargetState.DELIVERING);
        assertThat(TargetState.of(now, 5, now - 90_000, 0, now - 5_000, false, 0))
            .as("a backlog found at start gets 30 s").isEqualTo(TargetState.DELIVERING);
        assertThat(TargetState.of(now, 5, now - 90_000, 0, 0, true, 0)).isEqualTo(TargetState.FAILING);
        assertThat(TargetState.of(now, 5, now - 90_000, 0, 0, true, now - 1_000)).isEqualTo(TargetState.DEGRADED);
        assertThat(TargetState.of(now, 0, 0, 0, 0, false, now - 31_000)).as("a write failure fades").isEqualTo(TargetState.IDLE);
    }

    private static TargetState state(StatusBoard board) {
        board.sample();
        return board.snapshot().get(0).state();
    }
}

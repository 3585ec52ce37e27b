package dev.jetsink.internal.delivery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetryScheduleTest {

    @Test
    void backoffSleepsAre4_8_16_32ThenCycleExhausts() {
        RetryState state = RetrySchedule.standard().newState();
        List<NextStep> steps = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            steps.add(state.recordFailure());
        }

        assertThat(steps).containsExactly(
                new NextStep.RetryAfter(Duration.ofSeconds(4), 2),
                new NextStep.RetryAfter(Duration.ofSeconds(8), 3),
                new NextStep.RetryAfter(Duration.ofSeconds(16), 4),
                new NextStep.RetryAfter(Duration.ofSeconds(32), 5),
                new NextStep.CycleExhausted(1, 5));
    }

    @Test
    void noSleepFollowsTheLastAttemptOfACycle() {
        assertThatThrownBy(() -> RetrySchedule.standard().backoffAfter(5)).isInstanceOf(IllegalArgumentException.class);
        long slept = 0;
        for (int attempt = 1; attempt < RetrySchedule.ATTEMPTS_PER_CYCLE; attempt++) {
            slept += RetrySchedule.standard().backoffAfter(attempt).toSeconds();
        }
        assertThat(slept).isEqualTo(60);
    }

    @Test
    void exhaustionIsReportedOncePerCycle() {
        RetryState state = RetrySchedule.standard().newState();
        exhaust(state);

        assertThat(state.cycleExhausted()).isTrue();
        assertThatThrownBy(state::recordFailure).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void exhaustedEntryStartsAFreshCycleWhenItsTurnComes() {
        RetryState state = RetrySchedule.standard().newState();
        exhaust(state);

        state.startNewCycle();

        assertThat(state.cycle()).isEqualTo(2);
        assertThat(state.attemptsInCycle()).isZero();
        assertThat(state.recordFailure()).isEqualTo(new NextStep.RetryAfter(Duration.ofSeconds(4), 2));
        assertThat(state.lifetimeAttempts()).isEqualTo(6);
    }

    @Test
    void lifetimeAttemptsCountAcrossCycles() {
        RetryState state = RetrySchedule.standard().newState();
        exhaust(state);
        state.startNewCycle();
        state.recordFailure();
        state.recordFailure();
        state.startNewCycle();
        state.recordFailure();
        state.recordFailure();
        state.recordFailure();
        state.recordFailure();

        assertThat(state.recordFailure()).isEqualTo(new NextStep.CycleExhausted(3, 12));
    }

    @Test
    void finalAttemptIsCountedInTheRetryCount() {
        RetryState state = RetrySchedule.standard().newState();
        state.recordFailure();
        state.recordFailure();
        assertThat(state.recordFinalAttempt()).isEqualTo(3);
    }

    @Test
    void freshCycleOfAnUntriedEntryIsNotCounted() {
        RetryState state = RetrySchedule.standard().newState();
        state.startNewCycle();
        assertThat(state.cycle()).isEqualTo(1);
    }

    @Test
    void resumedStateKeepsItsLifetimeAttempts() {
        RetryState state = RetrySchedule.standard().resumeState(7);
        assertThat(state.recordFailure()).isEqualTo(new NextStep.RetryAfter(Duration.ofSeconds(4), 2));
        assertThat(state.lifetimeAttempts()).isEqualTo(8);
    }

    @Test
    void backoffScaleMultipliesEverySleep() {
        RetrySchedule fast = new RetrySchedule(0.01);
        assertThat(List.of(fast.backoffAfter(1), fast.backoffAfter(2), fast.backoffAfter(3), fast.backoffAfter(4)))
                .containsExactly(Duration.ofMillis(40), Duration.ofMillis(80), Duration.ofMillis(160),
                        Duration.ofMillis(320));
        assertThat(new RetrySchedule(0).backoffAfter(4)).isZero();
    }

    @Test
    void negativeOrNonFiniteBackoffScaleIsRejected() {
        assertThatThrownBy(() -> new RetrySchedule(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("backoff scale");
        assertThatThrownBy(() -> new RetrySchedule(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetrySchedule(Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static void exhaust(RetryState state) {
        for (int i = 0; i < RetrySchedule.ATTEMPTS_PER_CYCLE; i++) {
            state.recordFailure();
        }
    }
}

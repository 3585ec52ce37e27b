package dev.jetsink.internal.time;

import dev.jetsink.internal.time.Sleeper.SleepEnd;
import dev.jetsink.testkit.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ManualSleeperTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration WAIT = Duration.ofSeconds(5);

    private final FakeClock clock = new FakeClock(START);
    private final ManualSleeper sleeper = new ManualSleeper(clock);

    @Test
    void sleepEndsOnlyWhenTimeIsAdvancedPastIt() {
        CompletableFuture<SleepEnd> sleep = sleeper.sleep(Duration.ofSeconds(4));

        sleeper.advance(Duration.ofSeconds(3));
        assertThat(sleep).isNotDone();
        sleeper.advance(Duration.ofSeconds(1));
        assertThat(sleep).isCompletedWithValue(SleepEnd.ELAPSED);
        assertThat(clock.instant()).isEqualTo(START.plusSeconds(4));
    }

    @Test
    void reconnectWakesAPendingSleep() {
        CompletableFuture<SleepEnd> sleep = sleeper.sleep(Duration.ofSeconds(32));

        sleeper.wakeAll();

        assertThat(sleep).isCompletedWithValue(SleepEnd.WOKEN);
        assertThat(clock.instant()).isEqualTo(START);
        assertThat(sleeper.pendingDurations()).isEmpty();
    }

    @Test
    void wakeDoesNotAffectSleepsStartedAfterIt() {
        sleeper.wakeAll();
        CompletableFuture<SleepEnd> later = sleeper.sleep(Duration.ofSeconds(8));
        assertThat(later).isNotDone();
    }

    @Test
    void testCanAwaitASleepStartedByAnotherThread() throws Exception {
        CompletableFuture<SleepEnd> result = CompletableFuture
                .supplyAsync(() -> sleeper.sleep(Duration.ofSeconds(16)))
                .thenCompose(f -> f);

        sleeper.awaitPending(Duration.ofSeconds(16), WAIT);
        sleeper.advance(Duration.ofSeconds(16));

        assertThat(result.get(5, TimeUnit.SECONDS)).isEqualTo(SleepEnd.ELAPSED);
    }

    @Test
    void awaitingASleepThatNeverStartsFailsWithWhatIsPending() {
        sleeper.sleep(Duration.ofSeconds(4));
        assertThatThrownBy(() -> sleeper.awaitPending(Duration.ofSeconds(8), Duration.ofMillis(50)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("PT4S");
    }

    @Test
    void cancelledSleepIsNoLongerPending() {
        CompletableFuture<SleepEnd> sleep = sleeper.sleep(Duration.ofSeconds(4));
        sleep.cancel(false);
        assertThat(sleeper.pendingDurations()).isEmpty();
    }

    @Test
    void zeroSleepEndsAtOnce() {
        assertThat(sleeper.sleep(Duration.ZERO)).isCompletedWithValue(SleepEnd.ELAPSED);
    }

    @Test
    void clockRefusesToRunBackwards() {
        assertThatThrownBy(() -> clock.advance(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
    }
}

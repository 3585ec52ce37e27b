package dev.jetsink.internal.time;

import dev.jetsink.internal.time.Sleeper.SleepEnd;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ScheduledSleeperTest {

    private final ScheduledThreadPoolExecutor scheduler = newScheduler();
    private final ScheduledSleeper sleeper = new ScheduledSleeper(scheduler);

    private static ScheduledThreadPoolExecutor newScheduler() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1);
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    @Test
    void shortSleepElapsesOnItsOwn() throws Exception {
        long started = System.nanoTime();
        SleepEnd end = sleeper.sleep(Duration.ofMillis(20)).get(5, TimeUnit.SECONDS);

        assertThat(end).isEqualTo(SleepEnd.ELAPSED);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(20));
        assertThat(sleeper.pendingCount()).isZero();
    }

    @Test
    void reconnectWakesAPendingSleep() throws Exception {
        CompletableFuture<SleepEnd> sleep = sleeper.sleep(Duration.ofSeconds(32));

        sleeper.wakeAll();

        assertThat(sleep.get(1, TimeUnit.SECONDS)).isEqualTo(SleepEnd.WOKEN);
        assertThat(sleeper.pendingCount()).isZero();
    }

    @Test
    void endedSleepsLeaveNoTimerBehind() {
        CompletableFuture<SleepEnd> woken = sleeper.sleep(Duration.ofSeconds(32));
        CompletableFuture<SleepEnd> cancelled = sleeper.sleep(Duration.ofSeconds(32));

        sleeper.wakeAll();
        cancelled.cancel(false);

        assertThat(woken).isDone();
        assertThat(scheduler.getQueue()).isEmpty();
    }

    @Test
    void zeroSleepEndsAtOnce() {
        assertThat(sleeper.sleep(Duration.ZERO)).isCompletedWithValue(SleepEnd.ELAPSED);
    }
}

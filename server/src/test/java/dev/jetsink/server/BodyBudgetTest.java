package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class BodyBudgetTest {

    private static final int MAX = 4 * 1024 * 1024;

    @Test
    void aTwentyFourthOfTheHeapButNeverLessThanOneMaximalBody() {
        assertThat(BodyBudget.forHeap(192L << 20, MAX).capacityBytes()).isEqualTo(8L << 20);
        assertThat(BodyBudget.forHeap(32L << 20, MAX).capacityBytes()).isEqualTo(MAX);
    }

    @Test
    void largeBodiesBeyondTheBudgetAreRefusedWhileSmallOnesStillFit() throws Exception {
        BodyBudget budget = new BodyBudget(8L << 20, MAX);
        Optional<BodyBudget.Grant> first = budget.acquire(OptionalLong.of(MAX), Duration.ZERO);
        Optional<BodyBudget.Grant> second = budget.acquire(OptionalLong.of(MAX - 2048), Duration.ZERO);
        assertThat(first).isPresent();
        assertThat(second).isPresent();
        assertThat(budget.acquire(OptionalLong.of(MAX), Duration.ofMillis(20))).as("no room for a third").isEmpty();
        assertThat(budget.acquire(OptionalLong.of(1500), Duration.ZERO)).as("a webhook of 1.5 KiB fits").isPresent();
        first.get().close();
        first.get().close(); // idempotent: gives back its room once
        assertThat(budget.acquire(OptionalLong.of(MAX), Duration.ZERO)).isPresent();
        assertThat(budget.acquire(OptionalLong.of(MAX), Duration.ZERO)).isEmpty();
    }

    @Test
    void aBodyWithoutADeclaredLengthHoldsTheMaximum() throws Exception {
        BodyBudget budget = new BodyBudget(MAX, MAX);
        Optional<BodyBudget.Grant> chunked = budget.acquire(OptionalLong.empty(), Duration.ZERO);
        assertThat(chunked).isPresent();
        assertThat(budget.acquire(OptionalLong.of(10), Duration.ZERO)).isEmpty();
        chunked.get().close();
        assertThat(budget.acquire(OptionalLong.of(Long.MAX_VALUE), Duration.ZERO))
            .as("an oversized declaration holds the maximum, then gets its 413").isPresent();
    }

    @Test
    void aWaitingRequestGetsRoomWhenAnotherIsAnswered() throws Exception {
        BodyBudget budget = new BodyBudget(MAX, MAX);
        BodyBudget.Grant held = budget.acquire(OptionalLong.of(MAX), Duration.ZERO).orElseThrow();
        Thread releaser = new Thread(held::close);
        releaser.start();
        assertThat(budget.acquire(OptionalLong.of(MAX), Duration.ofSeconds(10))).isPresent();
        releaser.join();
    }
}

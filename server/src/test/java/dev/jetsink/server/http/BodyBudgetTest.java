package dev.jetsink.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BodyBudgetTest {

    private static final int MAX = 4 * 1024 * 1024;

    @Test
    void anEighthOfTheHeapButNeverLessThanOneMaximalBody() {
        assertThat(BodyBudget.forHeap(192L << 20, MAX).capacityBytes()).isEqualTo(24L << 20);
        assertThat(BodyBudget.forHeap(16L << 20, MAX).capacityBytes()).isEqualTo(MAX);
    }

    @Test
    void aBodyIsChargedForReceivedBytesNotForWhatItDeclares() {
        BodyBudget budget = new BodyBudget(MAX, MAX);
        BodyBudget.Grant stalled = budget.open();
        BodyBudget.Grant other = budget.open();
        assertThat(stalled.charge(1)).as("a stalled 4 MiB request has sent one byte").isTrue();
        assertThat(other.charge(MAX - 1024)).as("everything but the stalled request's 1 KiB unit is free").isTrue();
    }

    @Test
    void largeBodiesBeyondTheBudgetAreRefusedWhileSmallOnesStillFit() {
        BodyBudget budget = new BodyBudget(8L << 20, MAX);
        BodyBudget.Grant first = budget.open();
        BodyBudget.Grant second = budget.open();
        assertThat(first.charge(MAX)).isTrue();
        assertThat(second.charge(MAX - 2048)).isTrue();
        BodyBudget.Grant third = budget.open();
        assertThat(third.charge(MAX)).as("no room for a third maximal body").isFalse();
        assertThat(third.bytes()).as("a refused charge takes nothing").isZero();
        assertThat(budget.open().charge(1500)).as("a webhook of 1.5 KiB fits").isTrue();
        first.close();
        first.close(); // idempotent: gives back its room once
        assertThat(third.charge(MAX)).isTrue();
        assertThat(budget.open().charge(MAX)).isFalse();
    }

    @Test
    void aBodyGrowsChunkByChunkAndGivesEverythingBackOnClose() {
        BodyBudget budget = new BodyBudget(MAX, MAX);
        BodyBudget.Grant growing = budget.open();
        for (int i = 0; i < 4096; i++) {
            assertThat(growing.charge(1024)).isTrue();
        }
        assertThat(growing.bytes()).isEqualTo(MAX);
        assertThat(budget.open().charge(1)).as("the budget is spent").isFalse();
        growing.close();
        assertThat(growing.charge(1)).as("a closed grant takes nothing more").isFalse();
        assertThat(budget.open().charge(MAX)).isTrue();
    }
}

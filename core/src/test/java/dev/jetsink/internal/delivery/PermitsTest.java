package dev.jetsink.internal.delivery;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PermitsTest {

    @Test
    void aTrickleOfPublishesSharesOnePermitUntilTheWindowIsUsed() throws Exception {
        StreamConcurrency shared = new StreamConcurrency(2);
        Permits permits = new Permits(shared, 3);
        Permits.Group g = permits.open().orElseThrow();
        permits.opened(g);
        assertThat(permits.open()).contains(g);
        permits.opened(g);
        permits.opened(g);
        assertThat(permits.room(g)).isZero();
        assertThat(shared.tryAcquire(0)).as("one permit left for others").isTrue();
        shared.release();
    }

    @Test
    void aDispatcherHoldsAtMostTwoPermitsOneFillingOneDraining() throws Exception {
        StreamConcurrency shared = new StreamConcurrency(5);
        Permits permits = new Permits(shared, 1);
        Permits.Group first = permits.open().orElseThrow();
        permits.opened(first);
        Permits.Group second = permits.open().orElseThrow();
        permits.opened(second);
        assertThat(permits.open()).as("a third fill waits for a drain").isEmpty();
        assertThat(permits.blockedByOthers()).isFalse();
        permits.completed(first);
        assertThat(permits.open()).isPresent();
    }

    @Test
    void aPermitIsReleasedWhenItsPublishesComplete() throws Exception {
        StreamConcurrency shared = new StreamConcurrency(1);
        Permits permits = new Permits(shared, 10);
        Permits.Group g = permits.open().orElseThrow();
        permits.opened(g);
        assertThat(shared.tryAcquire(0)).isFalse();
        permits.completed(g);
        assertThat(shared.tryAcquire(0)).isTrue();
    }

    @Test
    void aFillWhosePreconditionsFailedGivesItsPermitBack() throws Exception {
        StreamConcurrency shared = new StreamConcurrency(1);
        Permits permits = new Permits(shared, 10);
        permits.unused(permits.open().orElseThrow());
        assertThat(shared.tryAcquire(0)).isTrue();
    }

    @Test
    void anotherTargetHoldingThePermitBlocksUs() throws Exception {
        StreamConcurrency shared = new StreamConcurrency(1);
        assertThat(shared.tryAcquire(0)).isTrue();
        Permits permits = new Permits(shared, 10);
        assertThat(permits.open()).isEmpty();
        assertThat(permits.blockedByOthers()).isTrue();
    }
}

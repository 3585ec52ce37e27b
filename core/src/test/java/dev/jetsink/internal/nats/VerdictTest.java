package dev.jetsink.internal.nats;

import dev.jetsink.lifecycle.ResetReason;
import dev.jetsink.lifecycle.StreamVerdict;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VerdictTest {

    @Test
    void newVerdictIsUnset() {
        Verdict verdict = new Verdict();
        assertThat(verdict.state()).isEqualTo(StreamVerdict.UNSET);
        assertThat(verdict.isPass()).isFalse();
        assertThat(verdict.lastResetReason()).isEmpty();
    }

    @Test
    void firstPassChangesTheVerdictAndLaterPassesDoNot() {
        Verdict verdict = new Verdict();
        assertThat(verdict.pass()).isTrue();
        assertThat(verdict.pass()).isFalse();
        assertThat(verdict.isPass()).isTrue();
    }

    @Test
    void firstResetAfterAPassChangesTheVerdictAndLaterResetsDoNot() {
        Verdict verdict = new Verdict();
        verdict.pass();

        assertThat(verdict.reset(ResetReason.STREAM_SEALED)).isTrue();
        assertThat(verdict.reset(ResetReason.STREAM_SEALED)).isFalse();
        assertThat(verdict.state()).isEqualTo(StreamVerdict.UNSET);
        assertThat(verdict.lastResetReason()).contains(ResetReason.STREAM_SEALED);
    }

    @Test
    void resetOfAnUnsetVerdictKeepsTheEarlierReason() {
        Verdict verdict = new Verdict();
        verdict.pass();
        verdict.reset(ResetReason.RECONNECTED);
        verdict.reset(ResetReason.NO_RESPONDERS);
        assertThat(verdict.lastResetReason()).contains(ResetReason.RECONNECTED);
    }

    @Test
    void onlyOneOfManyConcurrentSealedRejectionsSeesTheFirstReset() throws Exception {
        Verdict verdict = new Verdict();
        verdict.pass();
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger changed = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                all.add(pool.submit(() -> {
                    start.await();
                    if (verdict.reset(ResetReason.STREAM_SEALED)) {
                        changed.incrementAndGet();
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : all) {
                f.get(5, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(changed).hasValue(1);
    }
}

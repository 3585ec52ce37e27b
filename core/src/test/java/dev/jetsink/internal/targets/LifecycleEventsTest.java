package dev.jetsink.internal.targets;

import dev.jetsink.internal.nats.Classified;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.LifecycleListener;
import dev.jetsink.lifecycle.ResetReason;
import dev.jetsink.lifecycle.StreamVerdict;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LifecycleEventsTest {

    private static final String TARGET = "notify primary:nats";
    private final LifecycleEvents events = new LifecycleEvents();

    @Test
    void testAwaitsAnEventPublishedByAnotherThread() throws Exception {
        CompletableFuture<Void> publisher = CompletableFuture.runAsync(() -> {
            events.entryResolved(new LifecycleEvent.EntryResolved(TARGET, "id-1", 1, false, 1, java.time.Duration.ZERO, "S", 1));
            events.entryResolved(new LifecycleEvent.EntryResolved(TARGET, "id-2", 2, true, 2, java.time.Duration.ZERO, "S", 1));
        });

        LifecycleEvent.EntryResolved resolved = events.await(LifecycleEvent.EntryResolved.class,
                e -> e.msgId().equals("id-2"), Duration.ofSeconds(5));

        assertThat(resolved.duplicate()).isTrue();
        publisher.get(5, TimeUnit.SECONDS);
    }

    @Test
    void eventRecordedBeforeTheAwaitIsFound() throws Exception {
        events.probeModeEntered(new LifecycleEvent.ProbeModeEntered(TARGET, "id-1"));
        assertThat(events.await(LifecycleEvent.ProbeModeEntered.class, e -> true, Duration.ofMillis(10)).probeMsgId())
                .isEqualTo("id-1");
    }

    @Test
    void awaitFailsWhenNoMatchingEventArrives() {
        events.cycleExhausted(new LifecycleEvent.CycleExhausted(TARGET, "id-1", 1, 5, "publish timed out"));
        assertThatThrownBy(() -> events.await(LifecycleEvent.CycleExhausted.class, e -> e.cycle() == 2,
                Duration.ofMillis(50))).isInstanceOf(AssertionError.class).hasMessageContaining("CycleExhausted");
    }

    @Test
    void awaitCountWaitsForEnoughMatches() throws Exception {
        events.verdictChanged(new LifecycleEvent.VerdictChanged(TARGET, StreamVerdict.PASS, Optional.empty()));
        events.verdictChanged(new LifecycleEvent.VerdictChanged(TARGET, StreamVerdict.UNSET,
                Optional.of(ResetReason.RECONNECTED)));
        events.verdictChanged(new LifecycleEvent.VerdictChanged(TARGET, StreamVerdict.PASS, Optional.empty()));

        List<LifecycleEvent.VerdictChanged> passes = events.awaitCount(LifecycleEvent.VerdictChanged.class,
                e -> e.state() == StreamVerdict.PASS, 2, Duration.ofMillis(10));
        assertThat(passes).hasSize(2);
    }

    @Test
    void everyKindOfEventIsRecordedInOrder() {
        events.connectionChanged(new LifecycleEvent.ConnectionChanged(TARGET, LifecycleEvent.ConnectionEvent.RECONNECTED));
        events.attemptFailed(new LifecycleEvent.AttemptFailed(TARGET, "id-1",
                Classified.attemptDeadlineExceeded().outcome(), 1));
        events.movedToFailedStore(new LifecycleEvent.MovedToFailedStore(TARGET, "id-1", 1,
                Classified.validationFailed().outcome(), 2, java.nio.file.Path.of("failed", "r.json")));
        events.probeModeLeft(new LifecycleEvent.ProbeModeLeft(TARGET));

        assertThat(events.all()).extracting(e -> e.getClass().getSimpleName())
                .containsExactly("ConnectionChanged", "AttemptFailed", "MovedToFailedStore", "ProbeModeLeft");
    }

    @Test
    void noneListenerIgnoresEvents() {
        LifecycleListener.NONE.entryResolved(new LifecycleEvent.EntryResolved(TARGET, "id", 1, false, 1, java.time.Duration.ZERO, "", 0));
        assertThat(events.all()).isEmpty();
    }
}

package dev.jetsink.internal.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.queue.QueuedEntry;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class KeyChainsTest {
    private final KeyChains chains = new KeyChains();

    private static PendingEntry entry(long seq) {
        QueuedEntry e = new QueuedEntry(seq, "m-" + seq, Instant.EPOCH,
            new EventMetadata(TargetKind.NOTIFY, "photos", "a", "s3:ObjectCreated:Put", ""), 10);
        return new PendingEntry(e, new RetrySchedule(1.0).newState());
    }

    @Test
    void theFirstEntryOfAKeyStartsItsChainAndLaterOnesQueueBehindIt() {
        PendingEntry a1 = entry(1);
        PendingEntry a2 = entry(2);
        PendingEntry b1 = entry(3);
        assertThat(chains.append("a", a1)).isTrue();
        assertThat(chains.append("a", a2)).isFalse();
        assertThat(chains.append("b", b1)).as("another key has its own chain").isTrue();
        assertThat(chains.first("a")).isSameAs(a1);
        assertThat(chains.first("b")).isSameAs(b1);
        assertThat(chains.firsts()).containsExactlyInAnyOrder(a1, b1);
    }

    @Test
    void removingTheFirstMakesTheNextFirstAndTheLastLeavesNoChain() {
        PendingEntry a1 = entry(1);
        PendingEntry a2 = entry(2);
        PendingEntry a3 = entry(3);
        chains.append("a", a1);
        chains.append("a", a2);
        chains.append("a", a3);
        assertThat(chains.remove("a", a1)).isTrue();
        assertThat(chains.first("a")).isSameAs(a2);
        PendingEntry a4 = entry(4);
        chains.append("a", a4);
        assertThat(chains.remove("a", a2)).isTrue();
        assertThat(chains.remove("a", a3)).isTrue();
        assertThat(chains.first("a")).as("appended after the first changed, still at the end").isSameAs(a4);
        assertThat(chains.remove("a", a4)).isTrue();
        assertThat(chains.first("a")).isNull();
        assertThat(chains.firsts()).isEmpty();
    }

    @Test
    void anEntryBehindTheFirstCanBeTakenOutAndTheChainStaysInOrder() {
        PendingEntry a1 = entry(1);
        PendingEntry a2 = entry(2);
        PendingEntry a3 = entry(3);
        chains.append("a", a1);
        chains.append("a", a2);
        chains.append("a", a3);
        assertThat(chains.remove("a", a3)).as("the newest").isTrue();
        PendingEntry a4 = entry(4);
        chains.append("a", a4);
        assertThat(chains.remove("a", a2)).as("one in the middle").isTrue();
        assertThat(chains.removeAll("a")).containsExactly(a1, a4);
        assertThat(chains.first("a")).isNull();
    }

    @Test
    void anEntryNotInTheChainIsNotRemoved() {
        PendingEntry a1 = entry(1);
        chains.append("a", a1);
        assertThat(chains.remove("a", entry(2))).isFalse();
        assertThat(chains.remove("b", a1)).as("under another key").isFalse();
        assertThat(chains.first("a")).isSameAs(a1);
        assertThat(chains.removeAll("b")).isEmpty();
    }
}

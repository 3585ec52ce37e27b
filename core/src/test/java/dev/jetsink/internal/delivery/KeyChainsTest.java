package dev.jetsink.internal.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.queue.QueuedEntry;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class KeyChainsTest {
    private static final long A = ObjectHashes.key("photos/a");
    private static final long B = ObjectHashes.key("photos/b");
    private final KeyChains chains = new KeyChains();

    private static PendingEntry entry(long seq, String key) {
        QueuedEntry e = new QueuedEntry(seq, "m-" + seq, Instant.EPOCH,
            new EventMetadata(TargetKind.NOTIFY, "photos", "a", "s3:ObjectCreated:Put", ""), 10);
        PendingEntry p = new PendingEntry(e, new RetrySchedule(1.0).newState());
        p.orderKey(key);
        return p;
    }

    @Test
    void theFirstEntryOfAKeyStartsItsChainAndLaterOnesQueueBehindIt() {
        PendingEntry a1 = entry(1, "photos/a");
        PendingEntry a2 = entry(2, "photos/a");
        PendingEntry b1 = entry(3, "photos/b");
        assertThat(chains.append(A, "photos/a", a1)).isTrue();
        assertThat(chains.append(A, "photos/a", a2)).isFalse();
        assertThat(chains.append(B, "photos/b", b1)).as("another key has its own chain").isTrue();
        assertThat(chains.first(A, "photos/a")).isSameAs(a1);
        assertThat(chains.first(B, "photos/b")).isSameAs(b1);
        assertThat(chains.firsts()).containsExactlyInAnyOrder(a1, b1);
    }

    /** Entries 1, 2 and 3 of object a, appended in that order. */
    private PendingEntry[] chainOfThree() {
        PendingEntry[] a = {entry(1, "photos/a"), entry(2, "photos/a"), entry(3, "photos/a")};
        for (PendingEntry e : a) {
            chains.append(A, "photos/a", e);
        }
        return a;
    }

    @Test
    void removingTheFirstMakesTheNextFirstAndTheLastLeavesNoChain() {
        PendingEntry[] a = chainOfThree();
        PendingEntry a1 = a[0];
        PendingEntry a2 = a[1];
        PendingEntry a3 = a[2];
        assertThat(chains.remove(A, "photos/a", a1)).isTrue();
        assertThat(chains.first(A, "photos/a")).isSameAs(a2);
        PendingEntry a4 = entry(4, "photos/a");
        chains.append(A, "photos/a", a4);
        assertThat(chains.remove(A, "photos/a", a2)).isTrue();
        assertThat(chains.remove(A, "photos/a", a3)).isTrue();
        assertThat(chains.first(A, "photos/a")).as("appended after the first changed, still at the end").isSameAs(a4);
        assertThat(chains.remove(A, "photos/a", a4)).isTrue();
        assertThat(chains.first(A, "photos/a")).isNull();
        assertThat(chains.firsts()).isEmpty();
    }

    @Test
    void anEntryBehindTheFirstCanBeTakenOutAndTheChainStaysInOrder() {
        PendingEntry[] a = chainOfThree();
        PendingEntry a1 = a[0];
        PendingEntry a2 = a[1];
        PendingEntry a3 = a[2];
        assertThat(chains.remove(A, "photos/a", a3)).as("the newest").isTrue();
        PendingEntry a4 = entry(4, "photos/a");
        chains.append(A, "photos/a", a4);
        assertThat(chains.remove(A, "photos/a", a2)).as("one in the middle").isTrue();
        assertThat(chains.removeAll(A, "photos/a")).containsExactly(a1, a4);
        assertThat(chains.first(A, "photos/a")).isNull();
    }

    @Test
    void anEntryNotInTheChainIsNotRemoved() {
        PendingEntry a1 = entry(1, "photos/a");
        chains.append(A, "photos/a", a1);
        assertThat(chains.remove(A, "photos/a", entry(2, "photos/a"))).isFalse();
        assertThat(chains.remove(B, "photos/b", a1)).as("under another key").isFalse();
        assertThat(chains.first(A, "photos/a")).isSameAs(a1);
        assertThat(chains.removeAll(B, "photos/b")).isEmpty();
    }

    @Test
    void keysSharingAHashKeepChainsOfTheirOwn() {
        long shared = 42;
        PendingEntry x1 = entry(1, "photos/x");
        PendingEntry y1 = entry(2, "photos/y");
        PendingEntry x2 = entry(3, "photos/x");
        PendingEntry y2 = entry(4, "photos/y");
        assertThat(chains.append(shared, "photos/x", x1)).isTrue();
        assertThat(chains.append(shared, "photos/y", y1)).as("not behind the other key's entry").isTrue();
        assertThat(chains.append(shared, "photos/x", x2)).isFalse();
        assertThat(chains.append(shared, "photos/y", y2)).isFalse();
        assertThat(chains.firsts()).containsExactlyInAnyOrder(x1, y1);

        assertThat(chains.remove(shared, "photos/x", x1)).isTrue();
        assertThat(chains.first(shared, "photos/x")).isSameAs(x2);
        assertThat(chains.removeAll(shared, "photos/x")).as("a failure takes only its own key's chain").containsExactly(x2);
        assertThat(chains.first(shared, "photos/y")).isSameAs(y1);
        PendingEntry x3 = entry(5, "photos/x");
        assertThat(chains.append(shared, "photos/x", x3)).as("the hash's place is free again").isTrue();
        assertThat(chains.remove(shared, "photos/y", y1)).isTrue();
        assertThat(chains.first(shared, "photos/y")).isSameAs(y2);
        assertThat(chains.firsts()).containsExactlyInAnyOrder(x3, y2);
        assertThat(chains.remove(shared, "photos/y", y2)).isTrue();
        assertThat(chains.remove(shared, "photos/x", x3)).isTrue();
        assertThat(chains.firsts()).isEmpty();
    }
}

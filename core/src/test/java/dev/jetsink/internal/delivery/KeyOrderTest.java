package dev.jetsink.internal.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.event.OrderKeys;
import dev.jetsink.internal.queue.EntryAttributes;
import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.lifecycle.Outcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class KeyOrderTest {
    private static final Outcome SEALED = new Outcome(Outcome.Family.PERMANENT, Outcome.Cause.STREAM_SEALED,
        "stream sealed", OptionalInt.empty(), OptionalInt.empty());
    private final KeyOrder order = new KeyOrder();

    private static PendingEntry entry(long seq, String key) {
        return entry(seq, key, "m-" + seq);
    }

    private static PendingEntry entry(long seq, String key, String msgId) {
        QueuedEntry e = new QueuedEntry(seq, msgId, Instant.EPOCH,
            new EventMetadata(TargetKind.NOTIFY, "photos", "unused", "s3:ObjectCreated:Put", ""), 10,
            EntryAttributes.NONE.withOrderKey(Optional.of(key)));
        return new PendingEntry(e, new RetrySchedule(1.0).newState());
    }

    @Test
    void onlyTheOldestUnsettledEntryOfAKeyGoesAndEachSettlementReleasesTheNext() {
        PendingEntry a1 = entry(1, "photos/a");
        PendingEntry b1 = entry(2, "photos/b");
        PendingEntry a2 = entry(3, "photos/a");
        PendingEntry a3 = entry(4, "photos/a");
        assertThat(order.admit(a1)).isEqualTo(KeyOrder.Admission.GO);
        assertThat(order.admit(b1)).as("another key is not held back").isEqualTo(KeyOrder.Admission.GO);
        assertThat(order.admit(a2)).isEqualTo(KeyOrder.Admission.HOLD);
        assertThat(order.admit(a3)).isEqualTo(KeyOrder.Admission.HOLD);
        assertThat(order.held()).isEqualTo(2);

        assertThat(order.settled(b1)).isEmpty();
        assertThat(order.settled(a1)).contains(a2);
        assertThat(order.admit(a2)).as("released, it comes back through the line").isEqualTo(KeyOrder.Admission.GO);
        assertThat(order.settled(a2)).contains(a3);
        assertThat(order.settled(a3)).isEmpty();
        assertThat(order.held()).isZero();
        assertThat(order.admit(entry(5, "photos/a"))).as("the key is free again").isEqualTo(KeyOrder.Admission.GO);
    }

    @Test
    void anEntryThatFailsAnAttemptStaysFirstOfItsKey() {
        PendingEntry a1 = entry(1, "photos/a");
        PendingEntry a2 = entry(2, "photos/a");
        order.admit(a1);
        order.admit(a2);
        // a timeout or a spent retry cycle puts a1 back in the line: it goes again, a2 still waits
        assertThat(order.admit(a1)).isEqualTo(KeyOrder.Admission.GO);
        assertThatThrownBy(() -> order.admit(a2)).as("a held entry never comes back before its turn")
            .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aFailedEntryTakesItsHeldAndAlreadyQueuedFollowersToTheFailedStoreButNotLaterOnes() {
        PendingEntry a1 = entry(1, "photos/a");
        PendingEntry a2 = entry(2, "photos/a");
        PendingEntry b1 = entry(3, "photos/b");
        order.admit(a1);
        order.admit(a2);
        order.admit(b1);

        List<PendingEntry> followers = order.failed(a1, 5, SEALED);
        assertThat(followers).containsExactly(a2);
        assertThat(a2.follows().cause()).isEqualTo(Outcome.Cause.FOLLOWS_FAILED_EVENT);
        assertThat(a2.follows().detail()).isEqualTo("follows a failed event of the same object (stream sealed)");
        assertThat(a2.follows().isPermanent()).isTrue();
        assertThat(order.held()).isZero();

        PendingEntry a4 = entry(4, "photos/a");
        assertThat(order.admit(a4)).as("queued before the failure, read after it").isEqualTo(KeyOrder.Admission.FOLLOW_FAILED);
        assertThat(a4.follows()).isEqualTo(a2.follows());
        assertThat(order.admit(a4)).as("a follower whose move failed comes back a follower")
            .isEqualTo(KeyOrder.Admission.FOLLOW_FAILED);
        assertThat(order.admit(entry(6, "photos/a"))).as("accepted after the failure: delivered")
            .isEqualTo(KeyOrder.Admission.GO);
        assertThat(order.admit(entry(7, "photos/a"))).isEqualTo(KeyOrder.Admission.HOLD);
        assertThat(order.settled(b1)).isEmpty();
    }

    @Test
    void holdsAtMostTheBoundThenAsksTheDispatcherToReadNoFurther() {
        order.admit(entry(0, "hot"));
        for (int i = 1; i <= KeyOrder.MAX_HELD; i++) {
            assertThat(order.full()).isFalse();
            assertThat(order.admit(entry(i, "hot"))).isEqualTo(KeyOrder.Admission.HOLD);
        }
        assertThat(order.full()).isTrue();
    }

    @Test
    void anEntryQueuedWithoutAnOrderKeyIsOrderedByItsBucketAndObject() {
        QueuedEntry plain = new QueuedEntry(1, "m-1", Instant.EPOCH,
            new EventMetadata(TargetKind.NOTIFY, "photos", "a b.jpg", "s3:ObjectCreated:Put", ""), 10);
        assertThat(KeyOrder.keyOf(plain)).isEqualTo("photos/a b.jpg");
        String longKey = "k".repeat(OrderKeys.MAX_BYTES);
        QueuedEntry longOne = new QueuedEntry(2, "m-2", Instant.EPOCH,
            new EventMetadata(TargetKind.NOTIFY, "photos", longKey, "s3:ObjectCreated:Put", ""), 10);
        assertThat(KeyOrder.keyOf(longOne)).isEqualTo(OrderKeys.bounded("photos/" + longKey)).startsWith("sha256:");
    }

    @Test
    void manyKeysInterleavedComeOutInAcceptanceOrderPerKey() {
        java.util.Random r = new java.util.Random(42);
        List<PendingEntry> all = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            all.add(entry(i, "k" + r.nextInt(20)));
        }
        List<PendingEntry> line = new ArrayList<>(all);
        List<PendingEntry> out = new ArrayList<>();
        List<PendingEntry> flying = new ArrayList<>();
        while (!line.isEmpty() || !flying.isEmpty()) {
            if (!line.isEmpty() && (flying.isEmpty() || r.nextBoolean())) {
                PendingEntry p = line.remove(0);
                if (order.admit(p) == KeyOrder.Admission.GO) {
                    flying.add(p);
                }
            } else {
                PendingEntry done = flying.remove(r.nextInt(flying.size())); // acks come in any order
                if (r.nextInt(5) == 0) {
                    line.add(r.nextInt(line.size() + 1), done); // a timeout: back into the line anywhere
                    continue;
                }
                out.add(done);
                order.settled(done).ifPresent(next -> line.add(0, next));
            }
        }
        assertThat(out).hasSize(all.size());
        for (int k = 0; k < 20; k++) {
            String key = "k" + k;
            assertThat(out.stream().filter(p -> p.orderKey().equals(key)).mapToLong(PendingEntry::seq))
                .as(key).isSorted();
        }
    }
    @Test
    void sequencesCountEachObjectsEventsFromOneAndGoOnAfterARestart(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        KeyOrder first = KeyOrder.open(dir, 1);
        PendingEntry a1 = entry(1, "photos/a");
        PendingEntry a2 = entry(2, "photos/a");
        PendingEntry b1 = entry(3, "photos/b");
        first.admit(a1);
        first.admit(a2);
        first.admit(b1);
        assertThat(first.sequence(a1)).isEqualTo(1);
        assertThat(first.sequence(a1)).as("the same on every attempt").isEqualTo(1);
        assertThat(first.sequence(b1)).isEqualTo(1);
        first.settled(a1);
        assertThat(first.sequence(a2)).isEqualTo(2);
        first.close();

        // a restart before a2 settled: it is read again and gets the same number
        KeyOrder second = KeyOrder.open(dir, 2);
        PendingEntry again = entry(2, "photos/a");
        assertThat(second.admit(again)).isEqualTo(KeyOrder.Admission.GO);
        assertThat(second.sequence(again)).isEqualTo(2);
        second.settled(again);
        second.close();

        // a crash after a2 settled, before the queue made its resolution durable: a2 is read again
        KeyOrder third = KeyOrder.open(dir, 2);
        PendingEntry copy = entry(2, "photos/a");
        third.admit(copy);
        assertThat(third.sequence(copy)).as("its number is taken: the re-publish is a duplicate").isEqualTo(2);
        third.settled(copy);
        PendingEntry a3 = entry(5, "photos/a");
        third.admit(a3);
        assertThat(third.sequence(a3)).as("no number skipped").isEqualTo(3);
    }

    @Test
    void aFailuresFollowersStillFollowItAfterARestartAndUseUpTheirNumbers(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        KeyOrder first = KeyOrder.open(dir, 1);
        PendingEntry a1 = entry(1, "photos/a");
        PendingEntry a2 = entry(2, "photos/a");
        first.admit(a1);
        first.admit(a2);
        first.sequence(a1);
        assertThat(first.failed(a1, 4, SEALED)).containsExactly(a2);
        assertThat(a2.keySequence()).isEqualTo(2);
        first.close(); // forced, as before the queue makes the failed entries' resolutions durable

        // restarted before entries 3 and 4 (queued before the failure) were read
        KeyOrder second = KeyOrder.open(dir, 3);
        PendingEntry a3 = entry(3, "photos/a");
        assertThat(second.admit(a3)).isEqualTo(KeyOrder.Admission.FOLLOW_FAILED);
        assertThat(a3.follows().detail()).isEqualTo("follows a failed event of the same object (stream sealed)");
        assertThat(a3.keySequence()).as("a gap in the stream where the failed events were").isEqualTo(3);
        PendingEntry a5 = entry(5, "photos/a");
        assertThat(second.admit(a5)).isEqualTo(KeyOrder.Admission.GO);
        assertThat(second.sequence(a5)).isEqualTo(4);
    }

    @Test
    void aSendersReSendOfATakenEventRepeatsItsNumberAndTakesNoNewOne(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        KeyOrder order = KeyOrder.open(dir, 1);
        PendingEntry first = entry(1, "photos/a", "event-x");
        order.admit(first);
        assertThat(order.sequence(first)).isEqualTo(1);
        order.settled(first);
        PendingEntry resent = entry(2, "photos/a", "event-x"); // the same body again: the same msg id
        order.admit(resent);
        assertThat(order.sequence(resent)).as("a duplicate of the stored copy, which has 1").isEqualTo(1);
        order.settled(resent);
        PendingEntry next = entry(3, "photos/a", "event-y");
        order.admit(next);
        assertThat(order.sequence(next)).as("no gap for the consumer").isEqualTo(2);
    }

    @Test
    void orderFilesThatCannotBeOpenedLeaveTheOrderInMemoryWithoutNumbers(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Files.createDirectory(dir.resolve(KeySequences.FILE)); // not a file: cannot be opened
        java.nio.file.Files.createDirectory(dir.resolve(FailureMarks.FILE));
        KeyOrder order = KeyOrder.open(dir, 1);
        PendingEntry a1 = entry(1, "photos/a");
        PendingEntry a2 = entry(2, "photos/a");
        assertThat(order.admit(a1)).isEqualTo(KeyOrder.Admission.GO);
        assertThat(order.admit(a2)).as("the order still holds").isEqualTo(KeyOrder.Admission.HOLD);
        assertThat(order.sequence(a1)).as("no Jetsink-Sequence").isZero();
        assertThat(order.settled(a1)).contains(a2);
        assertThat(order.failed(a2, 5, SEALED)).isEmpty();
        assertThat(order.admit(entry(3, "photos/a"))).as("the failure's bound, in memory").isEqualTo(KeyOrder.Admission.FOLLOW_FAILED);
    }
}

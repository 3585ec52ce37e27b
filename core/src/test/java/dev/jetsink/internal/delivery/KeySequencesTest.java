package dev.jetsink.internal.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jetsink.internal.queue.ChannelFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeySequencesTest {
    @TempDir
    Path dir;
    /** Where {@link #copyOf} puts what a killed process left. */
    @TempDir
    Path copies;

    @Test
    void eachObjectsLastSequenceIsKeptAcrossAReopen() {
        KeySequences s = KeySequences.open(dir);
        assertThat(s.last(KeySequences.hash("photos/a.jpg"))).isEqualTo(KeySequences.Last.NONE);
        s.settled(KeySequences.hash("photos/a.jpg"), 1, 10, KeySequences.hash("m-10"));
        s.settled(KeySequences.hash("photos/a.jpg"), 2, 12, KeySequences.hash("m-12"));
        s.settled(KeySequences.hash("photos/b.jpg"), 1, 11, KeySequences.hash("m-11"));
        assertThat(s.last(KeySequences.hash("photos/a.jpg"))).isEqualTo(new KeySequences.Last(2, 12, KeySequences.hash("m-12")));

        s.force(); // as the queue does before it makes their resolutions durable
        KeySequences again = KeySequences.open(dir);
        assertThat(again.last(KeySequences.hash("photos/a.jpg"))).isEqualTo(new KeySequences.Last(2, 12, KeySequences.hash("m-12")));
        assertThat(again.last(KeySequences.hash("photos/b.jpg"))).isEqualTo(new KeySequences.Last(1, 11, KeySequences.hash("m-11")));
        assertThat(again.last(KeySequences.hash("photos/c.jpg"))).isEqualTo(KeySequences.Last.NONE);
    }

    @Test
    void growsPastItsFirstSizeAndKeepsEveryObject() throws Exception {
        KeySequences s = KeySequences.open(dir);
        long firstSize = Files.size(dir.resolve(KeySequences.FILE));
        int objects = 50_000; // past 60 % of the first 65 536 slots
        for (int i = 0; i < objects; i++) {
            s.settled(KeySequences.hash("bucket/object-" + i), i + 1, 1000L + i, KeySequences.hash("m-" + i));
        }
        assertThat(Files.size(dir.resolve(KeySequences.FILE))).isGreaterThan(firstSize);
        s.force();
        KeySequences again = KeySequences.open(dir);
        for (int i = 0; i < objects; i++) {
            assertThat(again.last(KeySequences.hash("bucket/object-" + i))).as("object " + i).isEqualTo(new KeySequences.Last(i + 1, 1000L + i, KeySequences.hash("m-" + i)));
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).as("no file of the growth left behind")
                .containsExactlyInAnyOrder(dir.resolve(KeySequences.FILE), dir.resolve(KeySequences.JOURNAL));
        }
    }

    @Test
    void anUnreadableFileIsSetAsideAndTheSequencesStartAgain() throws Exception {
        Files.writeString(dir.resolve(KeySequences.FILE), "not a table");
        KeySequences s = KeySequences.open(dir);
        assertThat(s.last(KeySequences.hash("photos/a.jpg"))).isEqualTo(KeySequences.Last.NONE);
        s.settled(KeySequences.hash("photos/a.jpg"), 1, 5, KeySequences.hash("m-5"));
        s.force();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                .anyMatch(n -> n.startsWith(KeySequences.FILE + ".unreadable-"));
        }
        assertThat(KeySequences.open(dir).last(KeySequences.hash("photos/a.jpg")).number()).isEqualTo(1);
    }

    @Test
    void whatTheJournalHoldsIsPutBackWhenTheTableLostIt() throws Exception {
        KeySequences s = KeySequences.open(dir);
        s.settled(KeySequences.hash("photos/a.jpg"), 1, 10, KeySequences.hash("m-10"));
        s.force();
        byte[] tableBefore = Files.readAllBytes(dir.resolve(KeySequences.FILE));
        s.settled(KeySequences.hash("photos/a.jpg"), 2, 12, KeySequences.hash("m-12"));
        s.settled(KeySequences.hash("photos/b.jpg"), 1, 13, KeySequences.hash("m-13"));
        s.force(); // the queue forces before its resolutions: the journal holds both writes now
        assertThat(Files.size(dir.resolve(KeySequences.JOURNAL))).isEqualTo(3 * 32);
        // a crash of the machine: the table's pages written since never reached the disk
        Files.write(dir.resolve(KeySequences.FILE), tableBefore);

        KeySequences again = KeySequences.open(dir);
        assertThat(again.last(KeySequences.hash("photos/a.jpg"))).isEqualTo(new KeySequences.Last(2, 12, KeySequences.hash("m-12")));
        assertThat(again.last(KeySequences.hash("photos/b.jpg")).number()).isEqualTo(1);
        assertThat(Files.size(dir.resolve(KeySequences.JOURNAL))).as("emptied once replayed").isZero();
    }

    @Test
    void aFullTableAtItsLargestForgetsTheObjectsSettledLongestAgo() throws Exception {
        int slots = 1 << 16;
        KeySequences s = KeySequences.open(dir, slots);
        long size = Files.size(dir.resolve(KeySequences.FILE));
        int objects = 100_000; // more than 60 % of the slots can hold, several times over
        for (int i = 0; i < objects; i++) {
            s.settled(KeySequences.hash("bucket/object-" + i), 7, 1000L + i, KeySequences.hash("m-" + i));
        }
        assertThat(Files.size(dir.resolve(KeySequences.FILE))).as("never grown past its largest").isEqualTo(size);
        s.force();
        KeySequences again = KeySequences.open(dir, slots);
        int newest = slots * 3 / 10; // a rebuild keeps at least the newer half of 60 %
        for (int i = objects - newest; i < objects; i++) {
            assertThat(again.last(KeySequences.hash("bucket/object-" + i))).as("object " + i)
                .isEqualTo(new KeySequences.Last(7, 1000L + i, KeySequences.hash("m-" + i)));
        }
        assertThat(again.last(KeySequences.hash("bucket/object-0"))).as("the oldest, forgotten: it starts again at 1")
            .isEqualTo(KeySequences.Last.NONE);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).as("no file of the rebuilds left behind")
                .containsExactlyInAnyOrder(dir.resolve(KeySequences.FILE), dir.resolve(KeySequences.JOURNAL));
        }
    }

    @Test
    void slotsPastTheJournalsBufferAreForcedAndPutBackToo() throws Exception {
        KeySequences s = KeySequences.open(dir);
        s.force();
        byte[] tableBefore = Files.readAllBytes(dir.resolve(KeySequences.FILE));
        int objects = 5_000; // more than the 2 048 slots the buffer holds before it goes to the file
        for (int i = 0; i < objects; i++) {
            s.settled(KeySequences.hash("bucket/object-" + i), 3, 100L + i, KeySequences.hash("m-" + i));
        }
        s.force();
        assertThat(Files.size(dir.resolve(KeySequences.JOURNAL))).isEqualTo(objects * 32L);
        Files.write(dir.resolve(KeySequences.FILE), tableBefore); // the machine crashed: the table's pages are lost

        KeySequences again = KeySequences.open(dir);
        for (int i = 0; i < objects; i++) {
            assertThat(again.last(KeySequences.hash("bucket/object-" + i))).as("object " + i)
                .isEqualTo(new KeySequences.Last(3, 100L + i, KeySequences.hash("m-" + i)));
        }
    }

    @Test
    void anObjectWithAnEventInHandIsNeverForgotten() {
        long inHand = KeySequences.hash("bucket/retrying-for-long");
        KeySequences s = KeySequences.open(dir, 1 << 16);
        s.keepInHand(() -> new long[] {inHand});
        s.settled(inHand, 41, 1, KeySequences.hash("m-1")); // the oldest of all: first to go, were it not in hand
        for (int i = 0; i < 100_000; i++) {
            s.settled(KeySequences.hash("bucket/object-" + i), 1, 10L + i, KeySequences.hash("m-" + i));
        }
        assertThat(s.last(KeySequences.hash("bucket/object-0"))).as("an old object not in hand: forgotten").isEqualTo(KeySequences.Last.NONE);
        assertThat(s.last(inHand)).isEqualTo(new KeySequences.Last(41, 1, KeySequences.hash("m-1")));
    }

    @Test
    void aPlaceFoundBeforeAnotherObjectTookItsSlotOrBeforeAGrowthStillWritesTheRightSlot() {
        KeySequences s = KeySequences.open(dir);
        long a = 1L << 32 | (100 ^ 1); // a and b start their probes at slot 100
        long b = 2L << 32 | (100 ^ 2);
        long placeOfA = s.place(a);
        s.settled(b, 1, 1, 9); // takes the free slot a's place names
        s.settled(placeOfA, a, 1, 2, 8);
        assertThat(s.last(a)).isEqualTo(new KeySequences.Last(1, 2, 8));
        assertThat(s.last(b)).isEqualTo(new KeySequences.Last(1, 1, 9));

        long c = KeySequences.hash("photos/c.jpg");
        long placeOfC = s.place(c);
        for (int i = 0; i < 50_000; i++) { // a growth: the table is mapped anew
            s.settled(KeySequences.hash("bucket/object-" + i), 1, 1000L + i, 7);
        }
        s.settled(placeOfC, c, 3, 60_000, 6);
        assertThat(s.last(c)).isEqualTo(new KeySequences.Last(3, 60_000, 6));
        s.force();
        assertThat(KeySequences.open(dir).last(c)).isEqualTo(new KeySequences.Last(3, 60_000, 6));
    }

    @Test
    void aKilledProcessKeepsWhatItForcedAndNoStoreReachesTheFileUnforced() throws Exception {
        KeySequences s = KeySequences.open(dir);
        long a = KeySequences.hash("photos/a.jpg");
        s.settled(a, 1, 10, KeySequences.hash("m-10"));
        s.force();
        byte[] table = Files.readAllBytes(dir.resolve(KeySequences.FILE));
        s.settled(a, 2, 12, KeySequences.hash("m-12"));
        assertThat(Files.readAllBytes(dir.resolve(KeySequences.FILE))).as("the mapping is the process's own copy")
            .isEqualTo(table);

        // killed before the next force: the queue had not made entry 12's resolution durable either, so
        // entry 12 comes back and is numbered 2 again
        assertThat(KeySequences.open(dir).last(a)).isEqualTo(new KeySequences.Last(1, 10, KeySequences.hash("m-10")));
    }

    @Test
    void pastItsLimitTheJournalIsEmptiedIntoTheTableFileInPlace() throws Exception {
        KeySequences s = KeySequences.open(dir, KeySequences.MAX_CAPACITY, 4096, ChannelFactory.DEFAULT);
        for (int i = 0; i < 1000; i++) { // 32 000 bytes of journal
            s.settled(KeySequences.hash("bucket/object-" + i), 5, 100L + i, i + 1);
        }
        s.force();
        assertThat(Files.size(dir.resolve(KeySequences.JOURNAL))).as("emptied: the table file holds the slots").isZero();
        s.settled(KeySequences.hash("bucket/object-0"), 6, 2000, 99);
        s.force();
        assertThat(Files.size(dir.resolve(KeySequences.JOURNAL))).as("below the limit: kept").isEqualTo(32);

        Files.delete(dir.resolve(KeySequences.JOURNAL)); // what the table file alone holds
        KeySequences again = KeySequences.open(dir);
        assertThat(again.last(KeySequences.hash("bucket/object-0")).number()).as("written after the table: only in the journal")
            .isEqualTo(5);
        for (int i = 0; i < 1000; i++) {
            assertThat(again.last(KeySequences.hash("bucket/object-" + i))).as("object " + i)
                .isEqualTo(new KeySequences.Last(5, 100L + i, i + 1));
        }
    }

    @Test
    void aForceWhoseTableFsyncFailsSaysSoKeepsTheJournalAndTheNextForceWritesTheTable() throws Exception {
        dev.jetsink.internal.queue.FaultyChannels disk = new dev.jetsink.internal.queue.FaultyChannels(
            name -> name.equals(KeySequences.FILE));
        KeySequences s = KeySequences.open(dir, KeySequences.MAX_CAPACITY, 1, disk); // every force writes the table
        long a = KeySequences.hash("bucket/a");
        s.settled(a, 1, 10, 7);
        disk.failForces.set(1);
        assertThatThrownBy(s::force).as("the queue's hook fails, so it keeps the resolutions back")
            .isInstanceOf(java.io.UncheckedIOException.class).hasMessageContaining("not written")
            .hasRootCauseMessage("injected fsync failure (Input/output error)");
        assertThat(Files.size(dir.resolve(KeySequences.JOURNAL))).as("kept: the table is not known durable").isEqualTo(32);
        assertThat(KeySequences.open(copyOf(dir)).last(a).number()).as("killed now: the journal brings it back").isEqualTo(1);

        s.force();
        assertThat(Files.size(dir.resolve(KeySequences.JOURNAL))).as("emptied: the table file was forced").isZero();
        assertThat(KeySequences.open(copyOf(dir)).last(a)).as("killed now: the table file alone")
            .isEqualTo(new KeySequences.Last(1, 10, 7));
    }

    /** The files of {@code from} in a new dir, as a killed process left them. */
    private Path copyOf(Path from) throws java.io.IOException {
        Path to = Files.createTempDirectory(copies, "killed");
        try (var files = Files.list(from)) {
            for (Path f : files.toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
        return to;
    }

    @Test
    void whatEachForceOnAnotherThreadCoveredSurvivesAKillWhileObjectsGoOnSettling() throws Exception {
        // a journal limit small enough that some forces write the table in place, and the table
        // grows while they do; settling goes on throughout, as on the dispatcher's thread
        KeySequences s = KeySequences.open(dir, 1 << 17, 256 << 10, ChannelFactory.DEFAULT);
        int objects = 60_000;
        int settles = 3 * objects;
        java.util.concurrent.atomic.AtomicInteger progress = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger durableUpTo = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger tableWrites = new java.util.concurrent.atomic.AtomicInteger();
        Thread upkeep = new Thread(() -> {
            while (progress.get() < settles) {
                int before = progress.get();
                long journalBefore = journalSize();
                s.force(); // the queue would now make the resolutions of the first `before` settles durable
                durableUpTo.set(before);
                tableWrites.addAndGet(journalSize() < journalBefore ? 1 : 0);
            }
        });
        upkeep.start();
        for (int k = 0; k < settles; k++) {
            int round = k / objects + 1;
            s.settled(KeySequences.hash("bucket/object-" + k % objects), round, k + 1L, round);
            progress.incrementAndGet();
        }
        upkeep.join();
        assertThat(tableWrites.get()).as("forces that wrote the table in place and emptied the journal").isGreaterThan(1);

        // killed now, with no force after the last one: each settle before that one's start is kept
        KeySequences again = KeySequences.open(dir);
        int covered = durableUpTo.get();
        for (int i = 0; i < objects; i++) {
            int lastCovered = covered - 1 - Math.floorMod(covered - 1 - i, objects); // object i's last settle before it
            long atLeast = lastCovered < 0 ? 0 : lastCovered / objects + 1;
            assertThat(again.last(KeySequences.hash("bucket/object-" + i)).number()).as("object " + i).isGreaterThanOrEqualTo(atLeast);
        }
    }

    private long journalSize() {
        try {
            return Files.size(dir.resolve(KeySequences.JOURNAL));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

package dev.jetsink.internal.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeySequencesTest {
    @TempDir
    Path dir;

    @Test
    void eachObjectsLastSequenceIsKeptAcrossAReopen() {
        KeySequences s = KeySequences.open(dir);
        assertThat(s.last(KeySequences.hash("photos/a.jpg"))).isEqualTo(KeySequences.Last.NONE);
        s.settled(KeySequences.hash("photos/a.jpg"), 1, 10, KeySequences.hash("m-10"));
        s.settled(KeySequences.hash("photos/a.jpg"), 2, 12, KeySequences.hash("m-12"));
        s.settled(KeySequences.hash("photos/b.jpg"), 1, 11, KeySequences.hash("m-11"));
        assertThat(s.last(KeySequences.hash("photos/a.jpg"))).isEqualTo(new KeySequences.Last(2, 12, KeySequences.hash("m-12")));

        KeySequences again = KeySequences.open(dir); // a restart, without force: the page cache has it
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
        assertThat(KeySequences.open(dir).last(c)).isEqualTo(new KeySequences.Last(3, 60_000, 6));
    }
}

package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.internal.delivery.KeySequences;
import dev.jetsink.server.testing.Tmpfs;
import org.junit.jupiter.api.Test;

/**
 * The order sequences of an ordered target on a full disk (DESIGN.md "Order per object"): their
 * journal cannot be written, so a force writes the table's changed pages into its file instead,
 * in place: the file was written out in full when made, so that needs no new space, and the numbers
 * go on and stay durable. (Once, a journal write that failed stopped the numbering, and the fault
 * campaign's full disk counted the gaps; later, the force failed and the numbers were safe only from
 * a killed process, not from a crash of the machine.)
 */
class OrderSequencesFullDiskTest {

    @Test
    void aFullDiskLeavesTheNumbersGoingAndTheForceWritesThemIntoTheTableInPlace() throws Exception {
        try (Tmpfs disk = Tmpfs.mount("4m")) {
            KeySequences s = KeySequences.open(disk.dir);
            disk.fill("ballast");
            int objects = 5_000; // past the journal's buffer: its writes to the full disk fail
            for (int round = 1; round <= 2; round++) {
                for (int i = 0; i < objects; i++) {
                    long key = KeySequences.hash("bucket/object-" + i);
                    s.settled(key, s.last(key).number() + 1, round * 10_000L + i, KeySequences.hash("m-" + round + "-" + i));
                }
            }
            assertThat(s.usable()).isTrue();
            for (int i = 0; i < objects; i++) {
                assertThat(s.last(KeySequences.hash("bucket/object-" + i)).number()).as("object " + i).isEqualTo(2);
            }
            s.force();
            assertThat(java.nio.file.Files.size(disk.dir.resolve(KeySequences.JOURNAL))).as("emptied").isZero();

            KeySequences again = KeySequences.open(disk.dir); // as after a kill: only what the files hold
            for (int i = 0; i < objects; i++) {
                assertThat(again.last(KeySequences.hash("bucket/object-" + i)).number()).as("object " + i).isEqualTo(2);
            }
        }
    }

    @Test
    void aTableThatCannotGrowOnAFullDiskGoesOnInTheSizeItHasAndGrowsOnceThereIsRoom() throws Exception {
        try (Tmpfs disk = Tmpfs.mount("8m")) { // room for the table's 2 MiB and, once freed, the 4 MiB it grows to
            KeySequences s = KeySequences.open(disk.dir); // 65 536 slots: it grows past 39 321 objects
            java.nio.file.Path ballast = disk.fill("ballast");
            int kept = 57_344; // 7/8 of the slots
            for (int i = 0; i < kept; i++) {
                s.settled(KeySequences.hash("bucket/object-" + i), 1, i + 1, KeySequences.hash("m-" + i));
            }
            assertThat(s.usable()).isTrue();
            long past = KeySequences.hash("bucket/past-seven-eighths");
            s.settled(past, 1, kept + 1, KeySequences.hash("m-past"));
            assertThat(s.last(past).number()).as("past 7/8 of a table that could not grow, a number is not kept").isZero();
            s.force();
            KeySequences again = KeySequences.open(disk.dir); // as after a kill: only what the files hold
            for (int i = 0; i < kept; i++) {
                assertThat(again.last(KeySequences.hash("bucket/object-" + i)).number()).as("object " + i).isEqualTo(1);
            }

            java.nio.file.Files.delete(ballast);
            // a failed growth is tried again after 1 024 new objects (a sixty-fourth of the table)
            for (int i = 0; i < 2_000; i++) {
                again.settled(KeySequences.hash("bucket/later-" + i), 1, kept + 10 + i, KeySequences.hash("l-" + i));
            }
            assertThat(again.last(KeySequences.hash("bucket/later-1999")).number()).as("grown: numbers kept again").isEqualTo(1);
            assertThat(again.last(KeySequences.hash("bucket/object-0")).number()).isEqualTo(1);
        }
    }
}

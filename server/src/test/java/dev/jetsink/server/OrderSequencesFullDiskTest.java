package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jetsink.internal.delivery.KeySequences;
import dev.jetsink.server.testing.Tmpfs;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

/**
 * The order sequences of an ordered target on a full disk (DESIGN.md "Order per object"): the table
 * was written out in full when made, so its numbers go on; only their journal, which guards them
 * against a crash of the machine, cannot be written, and forcing it says so. (Once, a journal write
 * that failed stopped the numbering, and the fault campaign's full disk counted the gaps.)
 */
class OrderSequencesFullDiskTest {

    @Test
    void aFullDiskLeavesTheNumbersGoingAndFailsOnlyTheForce() throws Exception {
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
            assertThatThrownBy(s::force).isInstanceOf(UncheckedIOException.class).hasMessageContaining("not forced");
        }
    }
}

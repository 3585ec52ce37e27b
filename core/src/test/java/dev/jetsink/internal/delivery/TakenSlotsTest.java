package dev.jetsink.internal.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TakenSlotsTest {

    @Test
    void findsWhatAProbeOfTheWholeTableFindsReadingOnlyTakenSlots() {
        int capacity = 1 << 12;
        ByteBuffer table = ByteBuffer.allocate(TableFiles.HEADER + capacity * TableFiles.SLOT);
        Random random = new Random(7);
        long[] present = new long[capacity * 6 / 10];
        for (int i = 0; i < present.length; i++) {
            long h = random.nextLong() | 1;
            table.putLong(TableFiles.slot(TableFiles.find(table, capacity, h)), h); // placed as the table places it
            present[i] = h;
        }
        TakenSlots taken = TakenSlots.of(table, capacity);
        assertThat(taken.count()).isEqualTo(present.length);
        for (long h : present) {
            assertThat(taken.find(table, h)).isEqualTo(TableFiles.find(table, capacity, h));
            assertThat(taken.taken(taken.find(table, h))).isTrue();
        }
        for (int i = 0; i < 10_000; i++) {
            long absent = random.nextLong() | 1;
            int at = taken.find(table, absent);
            assertThat(at).isEqualTo(TableFiles.find(table, capacity, absent));
            assertThat(taken.taken(at)).as("an object not in the table ends at a free slot").isFalse();
        }
        int free = taken.find(table, 12345);
        taken.take(free);
        assertThat(taken.taken(free)).isTrue();
        assertThat(taken.count()).isEqualTo(present.length + 1);
    }
}

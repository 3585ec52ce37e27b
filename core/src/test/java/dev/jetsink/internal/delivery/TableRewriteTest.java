package dev.jetsink.internal.delivery;

import static dev.jetsink.internal.delivery.TableFiles.HEADER;
import static dev.jetsink.internal.delivery.TableFiles.SLOT;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableRewriteTest {
    private static final long MAGIC = 0x5445535400000001L;
    private static final int W = TableRewrite.WINDOW;

    @TempDir
    Path dir;

    /** A key hash whose probe starts at {@code home}, the {@code k}-th of that home (k ≥ 1: never 0). */
    private static long homedAt(int home, int k) {
        return (long) k << 32 | (home ^ k) & 0xffffffffL;
    }

    private static ByteBuffer table(int capacity) {
        return ByteBuffer.allocate(HEADER + capacity * SLOT);
    }

    /** Puts {@code h} in {@code t} as {@link KeySequences} does, its queue sequence {@code queueSeq}. */
    private static void put(ByteBuffer t, int capacity, long h, long queueSeq) {
        int at = TableFiles.find(t, capacity, h);
        t.putLong(TableFiles.slot(at) + 8, h * 3).putLong(TableFiles.slot(at) + 16, queueSeq)
            .putLong(TableFiles.slot(at) + 24, h * 7).putLong(TableFiles.slot(at), h);
    }

    private ByteBuffer rewritten(ByteBuffer from, int fromCapacity, int slots, long keepFrom, long[] keep) throws IOException {
        Path to = dir.resolve("next");
        int kept = TableRewrite.write(to, MAGIC, from, fromCapacity, slots, keepFrom, keep);
        byte[] bytes = Files.readAllBytes(to);
        assertThat(bytes).as("the whole file written: header and every slot").hasSize(HEADER + slots * SLOT);
        ByteBuffer t = ByteBuffer.wrap(bytes);
        assertThat(t.getLong(0)).isEqualTo(MAGIC);
        assertThat(t.getLong(8)).isEqualTo(slots);
        int taken = 0;
        for (int i = 0; i < slots; i++) {
            taken += t.getLong(TableFiles.slot(i)) != 0 ? 1 : 0;
        }
        assertThat(taken).as("slots taken").isEqualTo(kept);
        return t;
    }

    private static void assertHolds(ByteBuffer t, int capacity, long h, long queueSeq) {
        int at = TableFiles.find(t, capacity, h);
        assertThat(t.getLong(TableFiles.slot(at))).as("key %x found", h).isEqualTo(h);
        assertThat(t.getLong(TableFiles.slot(at) + 8)).isEqualTo(h * 3);
        assertThat(t.getLong(TableFiles.slot(at) + 16)).isEqualTo(queueSeq);
        assertThat(t.getLong(TableFiles.slot(at) + 24)).isEqualTo(h * 7);
    }

    @Test
    void probesThatRunPastAWindowAndPastTheTablesEndAreFoundWhereTheyLand() throws IOException {
        int capacity = 2 * W;
        ByteBuffer from = table(capacity);
        List<Long> keys = new ArrayList<>();
        for (int k = 1; k <= 50; k++) {
            keys.add(homedAt(W - 10, k)); // 40 of them run into the second window
        }
        for (int k = 1; k <= 40; k++) {
            keys.add(homedAt(capacity - 5, k)); // 35 wrap to the first slots
        }
        for (int k = 1; k <= 20; k++) {
            keys.add(homedAt(0, k)); // at home where the wrapped ones go on
        }
        for (long h : keys) {
            put(from, capacity, h, 1);
        }
        for (int slots : new int[] {capacity, 2 * capacity}) {
            ByteBuffer t = rewritten(from, capacity, slots, Long.MIN_VALUE, new long[0]);
            for (long h : keys) {
                assertHolds(t, slots, h, 1);
            }
        }
    }

    @Test
    void aTableRewrittenOneWindowLargeWrapsWithinItself() throws IOException {
        int capacity = 1 << 10;
        ByteBuffer from = table(capacity);
        List<Long> keys = new ArrayList<>();
        for (int k = 1; k <= 30; k++) {
            keys.add(homedAt(capacity - 3, k));
        }
        for (long h : keys) {
            put(from, capacity, h, 1);
        }
        ByteBuffer t = rewritten(from, capacity, capacity, Long.MIN_VALUE, new long[0]);
        for (long h : keys) {
            assertHolds(t, capacity, h, 1);
        }
    }

    @Test
    void aRewriteKeepsTheNewerObjectsAndThoseInHandAndForgetsTheRest() throws IOException {
        int capacity = 4 * W;
        ByteBuffer from = table(capacity);
        SplittableRandom random = new SplittableRandom(7);
        int n = capacity * 6 / 10;
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            long h;
            do {
                h = random.nextLong();
            } while (h == 0 || from.getLong(TableFiles.slot(TableFiles.find(from, capacity, h))) == h); // new and not 0
            keys[i] = h;
            put(from, capacity, h, i);
        }
        long[] inHand = {keys[3], keys[10]};
        java.util.Arrays.sort(inHand);
        ByteBuffer t = rewritten(from, capacity, capacity, n / 2, inHand);
        for (int i = 0; i < n; i++) {
            if (i >= n / 2 || i == 3 || i == 10) {
                assertHolds(t, capacity, keys[i], i);
            } else {
                int at = TableFiles.find(t, capacity, keys[i]);
                assertThat(t.getLong(TableFiles.slot(at))).as("forgotten object %d", i).isZero();
            }
        }
        ByteBuffer grown = rewritten(from, capacity, 2 * capacity, Long.MIN_VALUE, new long[0]);
        for (int i = 0; i < n; i++) {
            assertHolds(grown, 2 * capacity, keys[i], i);
        }
    }
}

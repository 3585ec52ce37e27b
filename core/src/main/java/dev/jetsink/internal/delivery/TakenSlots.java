package dev.jetsink.internal.delivery;

import java.nio.ByteBuffer;

/**
 * Which slots of a {@link KeySequences} table hold an object: one bit each, 256 KiB at the largest
 * size. A probe reads the table only at taken slots, and a settlement whose slot was free when its
 * event was numbered knows without reading the table whether it still is. The table is 64 MiB of
 * random reads, each a cache and TLB miss; the bits mostly stay in a core's cache. Owned by the
 * dispatcher's thread.
 */
final class TakenSlots {
    private final long[] bits;
    private final int capacity;
    private int count;

    private TakenSlots(int capacity) {
        this.bits = new long[Math.max(1, capacity >>> 6)];
        this.capacity = capacity;
    }

    /** The taken slots of table {@code m} of {@code capacity} slots, read from it once. */
    static TakenSlots of(ByteBuffer m, int capacity) {
        TakenSlots t = new TakenSlots(capacity);
        for (int i = 0; i < capacity; i++) {
            if (m.getLong(TableFiles.slot(i)) != 0) {
                t.take(i);
            }
        }
        return t;
    }

    /** Whether slot {@code i} holds an object. */
    boolean taken(int i) {
        return (bits[i >>> 6] & 1L << i) != 0;
    }

    /** Slot {@code i} now holds an object. */
    void take(int i) {
        bits[i >>> 6] |= 1L << i;
        count++;
    }

    /** How many slots hold an object. */
    int count() {
        return count;
    }

    /** The slot of table {@code m} holding {@code h}, or the free slot where it goes (linear probing). */
    int find(ByteBuffer m, long h) {
        int mask = capacity - 1;
        for (int i = TableFiles.home(h, capacity); ; i = (i + 1) & mask) {
            if (!taken(i) || m.getLong(TableFiles.slot(i)) == h) {
                return i;
            }
        }
    }
}

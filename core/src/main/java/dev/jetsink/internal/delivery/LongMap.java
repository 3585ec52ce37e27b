package dev.jetsink.internal.delivery;

import java.util.ArrayList;
import java.util.List;

/**
 * A map from non-zero {@code long} keys to values, open addressing with linear probing. For the
 * per-event maps of an ordered target, keyed by an object's 64-bit hash: a put costs no entry
 * object and a lookup no boxing or string comparison. A removal moves later slots of its probe back
 * (no tombstones), so lookups stay short however many keys come and go. Not thread-safe.
 */
final class LongMap<V> {
    private long[] keys = new long[16];
    private Object[] values = new Object[16];
    private int size;

    /** The value of {@code key}; null when none. */
    V get(long key) {
        int at = slotOf(key);
        return keys[at] == key ? value(at) : null;
    }

    /** Puts {@code value} under {@code key} unless it has one: the value it had, or null. */
    V putIfAbsent(long key, V value) {
        int at = slotOf(key);
        if (keys[at] == key) {
            return value(at);
        }
        keys[at] = key;
        values[at] = value;
        if (++size * 4 > keys.length * 3) {
            grow();
        }
        return null;
    }

    /** Puts {@code value} under {@code key}, which has a value already. */
    void replace(long key, V value) {
        int at = slotOf(key);
        if (keys[at] != key) {
            throw new IllegalStateException("no value to replace under " + key);
        }
        values[at] = value;
    }

    /** Removes {@code key}: the value it had, or null. */
    V remove(long key) {
        int at = slotOf(key);
        if (keys[at] != key) {
            return null;
        }
        V had = value(at);
        int mask = keys.length - 1;
        // move back each later slot of the run whose probe starts at or before the freed one
        int free = at;
        for (int i = (at + 1) & mask; keys[i] != 0; i = (i + 1) & mask) {
            int home = home(keys[i], mask);
            if (((i - home) & mask) >= ((i - free) & mask)) {
                keys[free] = keys[i];
                values[free] = values[i];
                free = i;
            }
        }
        keys[free] = 0;
        values[free] = null;
        size--;
        return had;
    }

    int size() {
        return size;
    }

    /** Every value, in no particular order. */
    List<V> values() {
        List<V> all = new ArrayList<>(size);
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != 0) {
                all.add(value(i));
            }
        }
        return all;
    }

    /** The slot holding {@code key}, or the free slot where it goes. */
    private int slotOf(long key) {
        if (key == 0) {
            throw new IllegalArgumentException("0 is not a key");
        }
        int mask = keys.length - 1;
        int i = home(key, mask);
        while (keys[i] != key && keys[i] != 0) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private static int home(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L; // spread: a key may be a hash with poor low bits
        return (int) (h ^ (h >>> 32)) & mask;
    }

    private void grow() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new Object[oldKeys.length * 2];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != 0) {
                int at = slotOf(oldKeys[i]);
                keys[at] = oldKeys[i];
                values[at] = oldValues[i];
            }
        }
    }

    @SuppressWarnings("unchecked")
    private V value(int at) {
        return (V) values[at];
    }
}

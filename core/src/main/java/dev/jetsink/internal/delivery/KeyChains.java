package dev.jetsink.internal.delivery;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The unsettled entries of each key of a {@link KeyOrder}, oldest first, linked through the entries
 * themselves. Most events of a busy target are of an object not seen before, so most chains hold
 * one entry: linked this way, such a chain costs its map entry and nothing more, where a list per
 * key cost a list and its array for every event. An entry is in at most one chain, once.
 *
 * <p>Chains are found by the key's 64-bit hash ({@link ObjectHashes#key}, worked out once per entry
 * for {@link KeySequences} anyway) in a {@link LongMap}: no string hashed and no map entry made per
 * event. The first entry's key is compared, so a key whose hash another key's chain holds (never
 * seen, but possible) keeps a chain of its own, in a map by the key itself: no entry is ever
 * ordered behind, or failed with, another object's.
 */
final class KeyChains {
    /** Each chain's oldest entry by its key's hash; it carries the chain's newest ({@link PendingEntry#lastOfKey}). */
    private final LongMap<PendingEntry> firsts = new LongMap<>();
    /** The chains whose hash was another key's chain's when they began, by key. */
    private final Map<String, PendingEntry> collided = new HashMap<>();

    /**
     * Puts {@code p} at the end of the chain of {@code key} (hash {@code hash}); true when it is
     * the chain's first (the key had none).
     */
    boolean append(long hash, String key, PendingEntry p) {
        PendingEntry first = first(hash, key);
        p.nextOfKey(null);
        if (first == null) {
            p.lastOfKey(p);
            if (firsts.putIfAbsent(hash, p) != null) {
                collided.put(key, p);
            }
            return true;
        }
        p.lastOfKey(null);
        first.lastOfKey().nextOfKey(p);
        first.lastOfKey(p);
        return false;
    }

    /** The oldest entry of {@code key} (hash {@code hash}); null when it has none. */
    PendingEntry first(long hash, String key) {
        PendingEntry first = firsts.get(hash);
        if (first != null && first.orderKey().equals(key)) {
            return first;
        }
        return collided.isEmpty() ? null : collided.get(key);
    }

    /** Takes {@code p} out of the chain of {@code key} (hash {@code hash}); false when it is not in it. */
    boolean remove(long hash, String key, PendingEntry p) {
        PendingEntry first = first(hash, key);
        if (first == null) {
            return false;
        }
        if (first == p) {
            PendingEntry next = p.nextOfKey();
            if (next != null) {
                next.lastOfKey(p.lastOfKey());
            }
            makeFirst(hash, key, p, next);
            unlink(p);
            return true;
        }
        for (PendingEntry before = first; before.nextOfKey() != null; before = before.nextOfKey()) {
            if (before.nextOfKey() == p) {
                before.nextOfKey(p.nextOfKey());
                if (first.lastOfKey() == p) {
                    first.lastOfKey(before);
                }
                unlink(p);
                return true;
            }
        }
        return false;
    }

    /** Takes out the whole chain of {@code key} (hash {@code hash}): its entries, oldest first (none when it has none). */
    List<PendingEntry> removeAll(long hash, String key) {
        List<PendingEntry> chain = new ArrayList<>();
        PendingEntry p = first(hash, key);
        if (p != null) {
            makeFirst(hash, key, p, null);
        }
        while (p != null) {
            PendingEntry next = p.nextOfKey();
            unlink(p);
            chain.add(p);
            p = next;
        }
        return chain;
    }

    /** The oldest entry of every key that has one. */
    List<PendingEntry> firsts() {
        List<PendingEntry> all = firsts.values();
        all.addAll(collided.values());
        return all;
    }

    /** Puts {@code next} (null: none) where the chain of {@code key}, first {@code first}, is found. */
    private void makeFirst(long hash, String key, PendingEntry first, PendingEntry next) {
        if (firsts.get(hash) == first) {
            if (next == null) {
                firsts.remove(hash);
            } else {
                firsts.replace(hash, next);
            }
        } else if (next == null) {
            collided.remove(key);
        } else {
            collided.put(key, next);
        }
    }

    private static void unlink(PendingEntry p) {
        p.nextOfKey(null);
        p.lastOfKey(null);
    }
}

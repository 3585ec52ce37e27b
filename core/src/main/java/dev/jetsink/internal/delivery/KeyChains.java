package dev.jetsink.internal.delivery;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The unsettled entries of each key of a {@link KeyOrder}, oldest first, linked through the entries
 * themselves. Most events of a busy target are of an object not seen before, so most chains hold
 * one entry: linked this way, such a chain costs its map entry and nothing more, where a list per
 * key cost a list and its array for every event. An entry is in at most one chain, once.
 */
final class KeyChains {
    /** Each key's oldest entry; it carries the chain's newest ({@link PendingEntry#lastOfKey}). */
    private final Map<String, PendingEntry> firsts = new HashMap<>();

    /** Puts {@code p} at the end of {@code key}'s chain; true when it is the chain's first (the key had none). */
    boolean append(String key, PendingEntry p) {
        p.nextOfKey(null);
        p.lastOfKey(p);
        PendingEntry first = firsts.putIfAbsent(key, p);
        if (first == null) {
            return true;
        }
        p.lastOfKey(null);
        first.lastOfKey().nextOfKey(p);
        first.lastOfKey(p);
        return false;
    }

    /** The oldest entry of {@code key}; null when it has none. */
    PendingEntry first(String key) {
        return firsts.get(key);
    }

    /** Takes {@code p} out of {@code key}'s chain; false when it is not in it. */
    boolean remove(String key, PendingEntry p) {
        PendingEntry first = firsts.get(key);
        if (first == null) {
            return false;
        }
        if (first == p) {
            PendingEntry next = p.nextOfKey();
            if (next == null) {
                firsts.remove(key);
            } else {
                next.lastOfKey(p.lastOfKey());
                firsts.put(key, next);
            }
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

    /** Takes out {@code key}'s whole chain: its entries, oldest first (none when it has none). */
    List<PendingEntry> removeAll(String key) {
        List<PendingEntry> chain = new ArrayList<>();
        PendingEntry p = firsts.remove(key);
        while (p != null) {
            PendingEntry next = p.nextOfKey();
            unlink(p);
            chain.add(p);
            p = next;
        }
        return chain;
    }

    /** The oldest entry of every key that has one. */
    Collection<PendingEntry> firsts() {
        return firsts.values();
    }

    private static void unlink(PendingEntry p) {
        p.nextOfKey(null);
        p.lastOfKey(null);
    }
}

package dev.jetsink.internal.event;

import java.security.MessageDigest;
import java.util.Arrays;

/**
 * Where the members of one JSON object or array lie in bytes already written compactly, so that
 * the canonical form ({@link CanonicalJson}: members sorted by name at every level) can be hashed
 * straight from those bytes, piece by piece, without writing the value a second time. A member's
 * piece is {@code "name":value} (an element's, the value), as the generator wrote it, after the
 * comma it may start with. A container whose members already stand in canonical order, all the
 * way down, is hashed as one piece.
 */
final class WrittenLayout {
    private final boolean object;
    private final int open;
    private int close;
    private String[] names;
    private int[] starts = new int[8];
    private int[] ends = new int[8];
    private WrittenLayout[] inner = new WrittenLayout[8];
    private int size;
    private int[] order;
    private boolean canonical = true;

    /** A container whose opening bracket is at {@code open}. */
    WrittenLayout(boolean object, int open) {
        this.object = object;
        this.open = open;
        this.names = object ? new String[8] : null;
    }

    /** One member (for an array, {@code name} is null) written at {@code [start, end)}. */
    void add(String name, int start, int end, WrittenLayout value) {
        if (size == starts.length) {
            int grown = size * 2;
            starts = Arrays.copyOf(starts, grown);
            ends = Arrays.copyOf(ends, grown);
            inner = Arrays.copyOf(inner, grown);
            if (object) {
                names = Arrays.copyOf(names, grown);
            }
        }
        if (object) {
            names[size] = name;
        }
        starts[size] = start;
        ends[size] = end;
        inner[size] = value;
        size++;
        canonical &= value == null || value.canonical;
    }

    /**
     * The container ends before {@code end}. Returns false when an object holds a name twice: its
     * meaning (which value counts, and where) is then the tree's to decide.
     */
    boolean close(int end) {
        close = end;
        if (!object) {
            return true;
        }
        boolean sorted = true;
        for (int i = 1; i < size; i++) {
            int c = names[i - 1].compareTo(names[i]);
            if (c == 0) {
                return false;
            }
            sorted &= c < 0;
        }
        if (sorted) {
            return true;
        }
        canonical = false;
        order = new int[size];
        for (int i = 0; i < size; i++) {
            int at = i;
            // insertion sort: objects are small, and most are nearly in order
            while (at > 0 && names[order[at - 1]].compareTo(names[i]) > 0) {
                order[at] = order[at - 1];
                at--;
            }
            order[at] = i;
        }
        for (int i = 1; i < size; i++) {
            if (names[order[i - 1]].equals(names[order[i]])) {
                return false;
            }
        }
        return true;
    }

    /** Feeds the canonical form of this container, read from {@code written}, to {@code digest}. */
    void digest(byte[] written, MessageDigest digest) {
        if (canonical) {
            digest.update(written, open, close - open);
            return;
        }
        digest.update(written[open]);
        for (int k = 0; k < size; k++) {
            int i = order == null ? k : order[k];
            if (k > 0) {
                digest.update((byte) ',');
            }
            int from = written[starts[i]] == ',' ? starts[i] + 1 : starts[i];
            if (inner[i] == null) {
                digest.update(written, from, ends[i] - from);
            } else {
                digest.update(written, from, inner[i].open - from);
                inner[i].digest(written, digest);
            }
        }
        digest.update(written[close - 1]);
    }
}

package dev.jetsink.internal.delivery;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Which 4 KiB pages of a {@link KeySequences} table were written in memory since they were last
 * written to its file: one bit each (a 64 MiB table has 16 384 pages, 2 KiB of bits). Not
 * thread-safe: the table's lock guards it.
 */
final class DirtyPages {
    static final int PAGE_SHIFT = 12;
    static final int PAGE = 1 << PAGE_SHIFT;

    private final long[] words;
    private final int pages;

    /** None dirty, for a table of {@code bytes} bytes. */
    DirtyPages(long bytes) {
        this.pages = (int) ((bytes + PAGE - 1) >>> PAGE_SHIFT);
        this.words = new long[(pages + 63) >>> 6];
    }

    /** The page holding byte {@code offset} is dirty. */
    void mark(int offset) {
        int p = offset >>> PAGE_SHIFT;
        words[p >>> 6] |= 1L << p;
    }

    /**
     * Writes the first run of dirty pages at or after page {@code from}, at most {@code max} long,
     * from {@code table} into {@code file} at the same offset, marks them clean here and dirty in
     * {@code written} (until the file is forced). A run whose write fails stays dirty.
     * @return the page after the run, to go on from; -1 when no page from {@code from} on is dirty
     */
    int writeNext(ByteBuffer table, FileChannel file, int from, int max, DirtyPages written) throws IOException {
        int first = next(from);
        if (first < 0) {
            return -1;
        }
        int n = 0;
        while (n < max && first + n < pages && (words[(first + n) >>> 6] & 1L << (first + n)) != 0) {
            n++;
        }
        long at = (long) first << PAGE_SHIFT;
        TableFiles.write(file, table.slice((int) at, (int) Math.min((long) n << PAGE_SHIFT, table.capacity() - at)), at);
        for (int p = first; p < first + n; p++) {
            words[p >>> 6] &= ~(1L << p);
            written.words[p >>> 6] |= 1L << p;
        }
        return first + n;
    }

    /** Every page dirty in {@code other} (of the same table) is dirty here too. */
    void add(DirtyPages other) {
        for (int w = 0; w < words.length; w++) {
            words[w] |= other.words[w];
        }
    }

    /** The first dirty page at or after {@code from}; -1 when none. */
    private int next(int from) {
        if (from >= pages) {
            return -1;
        }
        int w = from >>> 6;
        long word = words[w] & -1L << from;
        while (word == 0) {
            if (++w == words.length) {
                return -1;
            }
            word = words[w];
        }
        return (w << 6) + Long.numberOfTrailingZeros(word);
    }
}

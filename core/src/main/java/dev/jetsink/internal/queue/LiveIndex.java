package dev.jetsink.internal.queue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The live entries of a queue, oldest first, in parallel primitive arrays so 180 000 entries cost
 * a few megabytes and no payloads: sequence, offset in its segment, record length and queued-at.
 * Resolved entries are marked with a negative length and squeezed out in bulk. Not thread-safe:
 * guarded by the queue's lock.
 */
final class LiveIndex {
    private long[] seqs = new long[1024];
    private int[] offsets = new int[1024];
    private int[] lengths = new int[1024];
    private long[] queuedAt = new long[1024];
    private int head;
    private int size;
    private int live;

    void add(long seq, int offset, int length, long queuedAtMs) {
        if (size > head && seqs[size - 1] >= seq) {
            throw new IllegalStateException("sequence " + seq + " is not above " + seqs[size - 1]);
        }
        if (size == seqs.length) {
            squeeze();
            if (size * 2 > seqs.length) {
                int cap = seqs.length * 2;
                seqs = Arrays.copyOf(seqs, cap);
                offsets = Arrays.copyOf(offsets, cap);
                lengths = Arrays.copyOf(lengths, cap);
                queuedAt = Arrays.copyOf(queuedAt, cap);
            }
        }
        seqs[size] = seq;
        offsets[size] = offset;
        lengths[size] = length;
        queuedAt[size] = queuedAtMs;
        size++;
        live++;
    }

    /** Index of a live entry, or -1. */
    int find(long seq) {
        int i = Arrays.binarySearch(seqs, head, size, seq);
        return i >= 0 && lengths[i] >= 0 ? i : -1;
    }

    /** First index whose sequence is above {@code seq}. */
    int firstAfter(long seq) {
        int i = Arrays.binarySearch(seqs, head, size, seq);
        return i >= 0 ? i + 1 : -i - 1;
    }

    boolean remove(long seq) {
        int i = find(seq);
        if (i < 0) {
            return false;
        }
        lengths[i] = -1;
        live--;
        while (head < size && lengths[head] < 0) {
            head++;
        }
        if (head == size) {
            head = 0;
            size = 0;
        } else if (size - head > 2 * live + 1024) {
            // many entries resolved out of order: keep paging linear in live entries
            squeeze();
        }
        return true;
    }

    int size() {
        return size;
    }

    int live() {
        return live;
    }

    boolean isLive(int i) {
        return lengths[i] >= 0;
    }

    long seq(int i) {
        return seqs[i];
    }

    int offset(int i) {
        return offsets[i];
    }

    int length(int i) {
        return lengths[i];
    }

    long queuedAt(int i) {
        return queuedAt[i];
    }

    void moveTo(int i, int newOffset) {
        offsets[i] = newOffset;
    }

    /** Index of the oldest live entry, or -1. */
    int oldest() {
        return head < size ? head : -1;
    }

    /** Drops resolved slots so the arrays hold only live entries. */
    /** Up to {@code max} live sequence numbers after {@code afterSeq}, oldest first. */
    List<Long> liveAfter(long afterSeq, int max) {
        List<Long> out = new ArrayList<>();
        for (int i = firstAfter(afterSeq); i < size && out.size() < max; i++) {
            if (isLive(i)) {
                out.add(seqs[i]);
            }
        }
        return out;
    }

    /** Live entries with {@code from <= seq < end} as {seq, offset, length} triples, oldest first. */
    List<long[]> liveBetween(long from, long end) {
        List<long[]> out = new ArrayList<>();
        for (int i = firstAfter(from - 1); i < size && seqs[i] < end; i++) {
            if (isLive(i)) {
                out.add(new long[] {seqs[i], offsets[i], lengths[i]});
            }
        }
        return out;
    }

    /** Moves a live entry to {@code newOffset} (compaction); an entry not indexed is left alone. */
    void moveSeq(long seq, int newOffset) {
        int i = find(seq);
        if (i >= 0) {
            moveTo(i, newOffset);
        }
    }

    private void squeeze() {
        int w = 0;
        for (int r = head; r < size; r++) {
            if (lengths[r] >= 0) {
                seqs[w] = seqs[r];
                offsets[w] = offsets[r];
                lengths[w] = lengths[r];
                queuedAt[w] = queuedAt[r];
                w++;
            }
        }
        head = 0;
        size = w;
    }
}

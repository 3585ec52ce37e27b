package dev.jetsink.internal.delivery;

import static dev.jetsink.internal.delivery.TableFiles.HEADER;
import static dev.jetsink.internal.delivery.TableFiles.SLOT;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Writes the file of a rewritten {@link KeySequences} table (a growth, or a full table forgetting
 * its older objects): the kept slots of the old table placed by linear probing in a table of the
 * new size, written front to back a window of {@value #WINDOW} slots at a time, so every byte of the
 * file is written (no hole) and the file is forced once.
 *
 * <p>Why not zeros and then the slots through a mapping, as before: each first store into a mapped
 * page of a file is a page fault the file system handles (ext4's page_mkwrite), about 15 µs on the
 * bench host; at 64 MiB that was 16 384 faults, 0.25 s of a 0.5 s rewrite that stalls the
 * dispatcher. Writes through the file cost a copy.
 *
 * <p>How the slots are placed: the kept slots are sorted by the window their home slot falls in (an
 * index of ints), and each window is filled in memory, then written. A slot whose probe runs past
 * its window's end is carried into the next window, from its start: the slots it passed are taken
 * and stay taken, so a lookup finds it where it lands. Past the table's end it wraps to the first
 * window, read back from the file. Any order of insertion gives a table every lookup reads right.
 */
final class TableRewrite {
    /** Slots placed in memory at once (1 MiB). */
    static final int WINDOW = 1 << 15;

    private final ByteBuffer from;
    private final int fromCapacity;
    private final int slots;
    private final int window;
    private final ByteBuffer buf;
    /** Old slots carried into the window being filled (their probe ran past the one before). */
    private int[] carry = new int[16];
    private int carried;

    private TableRewrite(ByteBuffer from, int fromCapacity, int slots) {
        this.from = from;
        this.fromCapacity = fromCapacity;
        this.slots = slots;
        this.window = Math.min(slots, WINDOW);
        this.buf = ByteBuffer.allocate(window * SLOT);
    }

    /**
     * Writes {@code to} as a table (header {@code magic}, {@code slots} slots) of the slots of
     * {@code from} ({@code fromCapacity} slots) whose queue sequence is at least {@code keepFrom} or
     * whose object is in {@code keep} (sorted), and forces it. A file left half written is deleted.
     * @return how many slots it kept
     */
    static int write(Path to, long magic, ByteBuffer from, int fromCapacity, int slots, long keepFrom, long[] keep)
        throws IOException {
        try (FileChannel ch = FileChannel.open(to, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            TableFiles.write(ch, ByteBuffer.allocate(HEADER).putLong(magic).putLong(slots).clear(), 0);
            int kept = new TableRewrite(from, fromCapacity, slots).fill(ch, keepFrom, keep);
            ch.force(true); // the slots, with the file's size: one fsync
            return kept;
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(to);
            throw e;
        }
    }

    private int fill(FileChannel ch, long keepFrom, long[] keep) throws IOException {
        int windows = slots / window;
        int[] kept = new int[fromCapacity / 8 * 5 + 1]; // a table is rewritten at 60 % full: no copy
        int n = 0;
        for (int i = 0; i < fromCapacity; i++) {
            if (kept(i, keepFrom, keep)) {
                if (n == kept.length) {
                    kept = Arrays.copyOf(kept, n * 2);
                }
                kept[n++] = i;
            }
        }
        // the kept old slots by the window of their new home, in the old table's order within each
        int[] starts = new int[windows + 1];
        for (int k = 0; k < n; k++) {
            starts[home(kept[k]) / window + 1]++;
        }
        for (int w = 0; w < windows; w++) {
            starts[w + 1] += starts[w];
        }
        int[] byWindow = new int[n];
        int[] next = Arrays.copyOf(starts, windows);
        for (int k = 0; k < n; k++) {
            byWindow[next[home(kept[k]) / window]++] = kept[k];
        }
        for (int w = 0; w < windows; w++) {
            Arrays.fill(buf.array(), (byte) 0);
            int[] into = takeCarried();
            for (int c : into) {
                place(c, 0);
            }
            for (int k = starts[w]; k < starts[w + 1]; k++) {
                place(byWindow[k], home(byWindow[k]) - w * window);
            }
            writeWindow(ch, w);
        }
        // probes that ran past the table's end go on from its first slot
        for (int w = 0; carried > 0; w = (w + 1) % windows) {
            buf.clear();
            while (buf.hasRemaining() && ch.read(buf, at(w) + buf.position()) > 0) {
                // the window as written
            }
            for (int c : takeCarried()) {
                place(c, 0);
            }
            writeWindow(ch, w);
        }
        return byWindow.length;
    }

    /**
     * The queue sequence that splits the objects of table {@code m} ({@code capacity} slots) into
     * halves, from a sample of at most 65 536 slots at an even stride; the oldest when it is empty.
     */
    static long newerHalf(ByteBuffer m, int capacity) {
        int stride = Math.max(1, capacity / (1 << 16));
        long[] sample = new long[capacity / stride];
        int n = 0;
        for (int i = 0; i < capacity; i += stride) {
            if (m.getLong(TableFiles.slot(i)) != 0) {
                sample[n++] = m.getLong(TableFiles.slot(i) + 16);
            }
        }
        Arrays.sort(sample, 0, n);
        return n == 0 ? Long.MIN_VALUE : sample[n / 2];
    }

    /** Whether old slot {@code i} holds an object to keep. */
    private boolean kept(int i, long keepFrom, long[] keep) {
        long h = from.getLong(TableFiles.slot(i));
        return h != 0 && (from.getLong(TableFiles.slot(i) + 16) >= keepFrom || Arrays.binarySearch(keep, h) >= 0);
    }

    /** Old slot {@code i}'s home in the new table. */
    private int home(int i) {
        return TableFiles.home(from.getLong(TableFiles.slot(i)), slots);
    }

    /** Puts old slot {@code i} in the first free slot of the window from {@code offset}, or carries it on. */
    private void place(int i, int offset) {
        for (int o = offset; o < window; o++) {
            if (buf.getLong(o * SLOT) == 0) {
                for (int off = 0; off < SLOT; off += 8) {
                    buf.putLong(o * SLOT + off, from.getLong(TableFiles.slot(i) + off));
                }
                return;
            }
        }
        if (carried == carry.length) {
            carry = Arrays.copyOf(carry, carried * 2);
        }
        carry[carried++] = i;
    }

    /** The slots carried into the next window, taken: what they probe into carries on anew. */
    private int[] takeCarried() {
        int[] taken = Arrays.copyOf(carry, carried);
        carried = 0;
        return taken;
    }

    private void writeWindow(FileChannel ch, int w) throws IOException {
        for (int off = 0; off < buf.capacity(); off += 1 << 16) {
            TableFiles.write(ch, buf.clear().position(off).limit(Math.min(buf.capacity(), off + (1 << 16))), at(w) + off);
        }
    }

    private long at(int w) {
        return HEADER + (long) w * window * SLOT;
    }
}

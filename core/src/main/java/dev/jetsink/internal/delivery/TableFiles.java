package dev.jetsink.internal.delivery;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * File steps of {@link KeySequences}: a table file written out in full, positional writes, a
 * directory forced; and where a slot is, which its rewrite ({@link TableRewrite}) shares.
 */
final class TableFiles {
    /** The header's size: the magic, the slot count, room for more. */
    static final int HEADER = 32;
    /** A slot's size. */
    static final int SLOT = 32;

    private TableFiles() {
    }

    /**
     * Writes a table file of {@code slots} empty slots, zeros after the header, so no page of it is
     * a hole (a store into a mapped page then needs no new space), and forces it. A file left half
     * written is deleted.
     */
    static void create(Path path, long magic, int slots) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
            write(ch, ByteBuffer.allocate(HEADER).putLong(magic).putLong(slots).clear(), 0);
            ByteBuffer zeros = ByteBuffer.allocate(1 << 16);
            long end = HEADER + (long) slots * SLOT;
            for (long at = HEADER; at < end; at += zeros.capacity()) {
                write(ch, zeros.clear().limit((int) Math.min(zeros.capacity(), end - at)), at);
            }
            ch.force(true);
        } catch (IOException e) {
            Files.deleteIfExists(path);
            throw e;
        }
    }

    /**
     * How many slots the table file at {@code path} has, when it is one: its header has
     * {@code magic} and a power of two, and its size fits that count; else 0.
     */
    static long slotsOf(Path path, long magic) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(16);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            while (header.hasRemaining() && ch.read(header, header.position()) > 0) {
                // the magic and the slot count
            }
            long slots = header.hasRemaining() ? 0 : header.getLong(8);
            boolean table = !header.hasRemaining() && header.getLong(0) == magic && slots > 0 && Long.bitCount(slots) == 1
                && slots <= Integer.MAX_VALUE / SLOT && ch.size() == HEADER + slots * SLOT;
            return table ? slots : 0;
        }
    }

    /** Writes all of {@code b} at {@code at}. */
    static void write(FileChannel ch, ByteBuffer b, long at) throws IOException {
        long pos = at;
        while (b.hasRemaining()) {
            pos += ch.write(b, pos);
        }
    }

    /** Forces directory {@code dir}, so a rename in it survives a crash of the machine. */
    static void forceDirectory(Path dir) throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }

    /** Where the probe for key hash {@code h} starts in a table of {@code capacity} slots (a power of two). */
    static int home(long h, int capacity) {
        return (int) (h ^ (h >>> 32)) & (capacity - 1);
    }

    /** The slot holding {@code h}, or the empty slot where it goes (linear probing). */
    static int find(ByteBuffer m, int capacity, long h) {
        int mask = capacity - 1;
        for (int i = home(h, capacity); ; i = (i + 1) & mask) {
            long at = m.getLong(slot(i));
            if (at == h || at == 0) {
                return i;
            }
        }
    }

    /** The byte offset of slot {@code i}. */
    static int slot(int i) {
        return HEADER + i * SLOT;
    }
}

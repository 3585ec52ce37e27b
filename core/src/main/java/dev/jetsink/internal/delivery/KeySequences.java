package dev.jetsink.internal.delivery;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * For an ordered target, the {@code Jetsink-Sequence} each object's last settled event carried and
 * that event's queue sequence (DESIGN.md "Order per object"), kept in the file {@value #FILE} of
 * the target's queue dir so they survive restarts: an open-addressing table of 24-byte slots (the
 * first 8 bytes of the key's SHA-256, never 0; the number; the queue sequence), mapped into memory,
 * grown by doubling into a new file that replaces the old one. A write reaches the page cache at
 * once, so a crash of the process loses nothing; {@link #force} makes it durable against a crash of
 * the machine, and the queue runs it before it makes resolutions durable.
 *
 * <p>Only the dispatcher's thread writes it; {@link #force} may run on the queue's upkeep thread.
 */
public final class KeySequences {
    /** The table's file name in the queue dir. */
    public static final String FILE = "order-sequences";
    private static final Logger log = LoggerFactory.getLogger(KeySequences.class);
    private static final long MAGIC = 0x4a534b5345510002L; // "JSKSEQ" and format 2
    private static final int HEADER = 32;
    private static final int SLOT = 24;
    private static final int FIRST_CAPACITY = 1 << 16;
    /** Largest table (1.5 GiB of slots): about 40 million objects at the fill it grows at. */
    private static final int MAX_CAPACITY = 1 << 26;

    private final Path file;
    private final MessageDigest sha = sha256();
    private volatile MappedByteBuffer table;
    private int capacity;
    private int count;

    private KeySequences(Path file) {
        this.file = file;
    }

    /**
     * Opens (or creates) the table in {@code queueDir}. A file that is not a table (damaged, or
     * another format) is set aside as {@code order-sequences.unreadable-<time>} and a new one begun:
     * the objects' sequences then start again at 1, which the error log says.
     */
    public static KeySequences open(Path queueDir) {
        KeySequences s = new KeySequences(queueDir.resolve(FILE));
        try {
            if (Files.exists(s.file) && !s.load()) {
                Path aside = s.file.resolveSibling(FILE + ".unreadable-" + Instant.now().toEpochMilli());
                Files.move(s.file, aside);
                log.error("order sequences file unreadable, set aside as {}: each object's Jetsink-Sequence starts again at 1",
                    aside.getFileName());
            }
            if (s.table == null) {
                s.create(s.file, FIRST_CAPACITY);
                s.table = map(s.file, FIRST_CAPACITY);
                s.capacity = FIRST_CAPACITY;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("order sequences file " + s.file, e);
        }
        return s;
    }

    /** An object's last settled event: its number and its queue sequence (both 0 when none). */
    public record Last(long number, long queueSeq) {
        static final Last NONE = new Last(0, 0);
    }

    /** {@code key}'s last settled event. */
    public Last last(String key) {
        long h = hash(key);
        MappedByteBuffer t = table;
        int at = find(t, capacity, h);
        return t.getLong(slot(at)) == h ? new Last(t.getLong(slot(at) + 8), t.getLong(slot(at) + 16)) : Last.NONE;
    }

    /** {@code key}'s event at {@code queueSeq} settled with {@code number}. */
    public void settled(String key, long number, long queueSeq) {
        long h = hash(key);
        int at = find(table, capacity, h);
        if (table.getLong(slot(at)) != h) {
            if ((count + 1L) * 10 > capacity * 6L && !grow()) {
                return; // logged: at the largest size, a new object keeps no sequence past a restart
            }
            at = find(table, capacity, h);
            put(at, number, queueSeq); // the values first: a slot is taken only with them
            table.putLong(slot(at), h);
            count++;
            table.putLong(16, count);
            return;
        }
        put(at, number, queueSeq);
    }

    private void put(int at, long number, long queueSeq) {
        table.putLong(slot(at) + 16, queueSeq);
        table.putLong(slot(at) + 8, number);
    }

    /** Forces the table to disk: before the queue makes resolutions durable, and when the target stops. */
    public void force() {
        table.force();
    }

    private boolean load() throws IOException {
        long size = Files.size(file);
        ByteBuffer header = ByteBuffer.allocate(16);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (header.hasRemaining() && ch.read(header, header.position()) > 0) {
                // read the magic and the capacity
            }
        }
        long cap = header.hasRemaining() ? 0 : header.getLong(8);
        if (header.hasRemaining() || header.getLong(0) != MAGIC || cap < FIRST_CAPACITY || cap > MAX_CAPACITY
            || Long.bitCount(cap) != 1 || size != HEADER + cap * SLOT) {
            return false;
        }
        table = map(file, (int) cap);
        capacity = (int) cap;
        int n = 0;
        for (int i = 0; i < capacity; i++) {
            n += table.getLong(slot(i)) != 0 ? 1 : 0;
        }
        count = n; // counted, not trusted from the header: a crash can leave it behind
        return true;
    }

    private boolean grow() {
        if (capacity >= MAX_CAPACITY) {
            log.error("order sequences table full at {} objects: objects new to it get no lasting Jetsink-Sequence", count);
            return false;
        }
        int bigger = capacity * 2;
        Path next = file.resolveSibling(FILE + ".next");
        try {
            create(next, bigger);
            MappedByteBuffer m = map(next, bigger);
            for (int i = 0; i < capacity; i++) {
                long h = table.getLong(slot(i));
                if (h != 0) {
                    int at = find(m, bigger, h);
                    m.putLong(slot(at), h);
                    m.putLong(slot(at) + 8, table.getLong(slot(i) + 8));
                    m.putLong(slot(at) + 16, table.getLong(slot(i) + 16));
                }
            }
            m.putLong(16, count);
            m.force();
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            table = m;
            capacity = bigger;
            return true;
        } catch (IOException e) {
            log.error("order sequences table could not grow to {} slots: {}", bigger, e.toString());
            return false;
        }
    }

    private void create(Path path, int slots) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer header = ByteBuffer.allocate(HEADER).putLong(MAGIC).putLong(slots).putLong(0).putLong(0).flip();
            ch.write(header, 0);
            ch.write(ByteBuffer.allocate(1), HEADER + (long) slots * SLOT - 1); // the full length, sparse
            ch.force(true);
        }
    }

    private static MappedByteBuffer map(Path path, int slots) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, HEADER + (long) slots * SLOT);
        }
    }

    /** The slot holding {@code h}, or the empty slot where it goes (linear probing). */
    private static int find(MappedByteBuffer m, int capacity, long h) {
        int mask = capacity - 1;
        for (int i = (int) (h ^ (h >>> 32)) & mask; ; i = (i + 1) & mask) {
            long at = m.getLong(slot(i));
            if (at == h || at == 0) {
                return i;
            }
        }
    }

    private static int slot(int i) {
        return HEADER + i * SLOT;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private long hash(String key) {
        byte[] d = sha.digest(key.getBytes(StandardCharsets.UTF_8));
        long h = ByteBuffer.wrap(d).getLong();
        return h == 0 ? 1 : h;
    }
}

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
 * For an ordered target, the {@code Jetsink-Sequence} each object's last settled event carried,
 * that event's queue sequence and a hash of its msg id (DESIGN.md "Order per object"), kept in the
 * file {@value #FILE} of the target's queue dir so they survive restarts: an open-addressing table
 * of 32-byte slots (the first 8 bytes of the key's SHA-256, never 0; the number; the queue
 * sequence; the first 8 bytes of the msg id's SHA-256), grown by doubling into a new file that
 * replaces the old one.
 *
 * <p>The file is written out in full when it is made (no holes), read through a read-only memory
 * mapping and written with positional writes: a full disk then fails a write with an error instead
 * of faulting a mapped page. A write is in the page cache at once, so a killed process loses
 * nothing; {@link #force} makes the writes durable against a crash of the machine, and the queue
 * runs it before it makes resolutions durable. After a failed write the table stops numbering
 * (logged) until the target is opened again.
 *
 * <p>Only the dispatcher's thread writes; {@link #force} may run on the queue's upkeep thread.
 */
public final class KeySequences {
    /** The table's file name in the queue dir. */
    public static final String FILE = "order-sequences";
    private static final Logger log = LoggerFactory.getLogger(KeySequences.class);
    private static final long MAGIC = 0x4a534b5345510003L; // "JSKSEQ" and format 3
    private static final int HEADER = 32;
    private static final int SLOT = 32;
    private static final int FIRST_CAPACITY = 1 << 16;
    /** Largest table (1 GiB of slots): about 20 million objects at the fill it grows at. */
    private static final int MAX_CAPACITY = 1 << 25;

    /**
     * An object's last settled event: its number, its queue sequence and a hash of its msg id (all 0
     * when none).
     */
    public record Last(long number, long queueSeq, long msgIdHash) {
        static final Last NONE = new Last(0, 0, 0);
    }

    private final Path file;
    private final MessageDigest sha = sha256();
    private volatile FileChannel channel;
    private MappedByteBuffer table;
    private int capacity;
    private int count;
    private volatile boolean broken;

    private KeySequences(Path file) {
        this.file = file;
    }

    /**
     * Opens (or creates) the table in {@code queueDir}. A file that is not a table (damaged, or
     * another format) is set aside as {@code order-sequences.unreadable-<time>} and a new one begun:
     * the objects' sequences then start again at 1, which the error log says.
     *
     * @throws UncheckedIOException when the file cannot be read, made or opened for writing
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
                create(s.file, FIRST_CAPACITY);
                s.attach(s.file, FIRST_CAPACITY);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("order sequences file " + s.file, e);
        }
        return s;
    }

    /** Whether it still numbers: false after a write failed. */
    public boolean usable() {
        return !broken;
    }

    /** {@code key}'s last settled event. */
    public Last last(String key) {
        long h = hash(key);
        int at = find(table, capacity, h);
        return table.getLong(slot(at)) == h
            ? new Last(table.getLong(slot(at) + 8), table.getLong(slot(at) + 16), table.getLong(slot(at) + 24)) : Last.NONE;
    }

    /** {@code key}'s event at {@code queueSeq}, msg id {@code msgId}, settled with {@code number}. */
    public void settled(String key, long number, long queueSeq, String msgId) {
        if (broken) {
            return;
        }
        long h = hash(key);
        int at = find(table, capacity, h);
        if (table.getLong(slot(at)) != h) {
            if ((count + 1L) * 10 > capacity * 6L && !grow()) {
                return; // logged: at the largest size, a new object keeps no sequence past a restart
            }
            at = find(table, capacity, h);
            count++;
        }
        // the key last: a slot is taken only with its values
        ByteBuffer b = ByteBuffer.allocate(SLOT).putLong(h).putLong(number).putLong(queueSeq).putLong(hash(msgId)).flip();
        try {
            write(channel, b.slice(8, 24), slot(at) + 8L);
            write(channel, b.slice(0, 8), slot(at));
        } catch (IOException e) {
            broken = true;
            log.error("order sequences file {} not written ({}): messages carry no Jetsink-Sequence until the target is"
                + " opened again", file.getFileName(), e.toString());
        }
    }

    /** The hash {@link Last#msgIdHash} holds of {@code msgId}. */
    public long msgIdHash(String msgId) {
        return hash(msgId);
    }

    /** Forces the writes to disk: before the queue makes resolutions durable, and when the target stops. */
    public void force() {
        try {
            channel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("order sequences file " + file + " not forced", e);
        }
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
        attach(file, (int) cap);
        int n = 0;
        for (int i = 0; i < capacity; i++) {
            n += table.getLong(slot(i)) != 0 ? 1 : 0;
        }
        count = n;
        return true;
    }

    /** Opens {@code path} for writing and maps it for reading. */
    private void attach(Path path, int slots) throws IOException {
        FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            table = ch.map(FileChannel.MapMode.READ_ONLY, 0, HEADER + (long) slots * SLOT);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        FileChannel old = channel;
        channel = ch;
        capacity = slots;
        if (old != null) {
            old.close();
        }
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
            try (FileChannel ch = FileChannel.open(next, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_WRITE, 0, HEADER + (long) bigger * SLOT);
                for (int i = 0; i < capacity; i++) {
                    long h = table.getLong(slot(i));
                    if (h != 0) {
                        int at = find(m, bigger, h);
                        for (int off = 0; off < SLOT; off += 8) {
                            m.putLong(slot(at) + off, table.getLong(slot(i) + off));
                        }
                    }
                }
                m.force();
            }
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            attach(file, bigger);
            return true;
        } catch (IOException e) {
            log.error("order sequences table could not grow to {} slots: {}", bigger, e.toString());
            return false;
        }
    }

    /** Writes the whole file, zeros after the header, and forces it: no page of it is a hole. */
    private static void create(Path path, int slots) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
            write(ch, ByteBuffer.allocate(HEADER).putLong(MAGIC).putLong(slots).clear(), 0);
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

    private static void write(FileChannel ch, ByteBuffer b, long at) throws IOException {
        long pos = at;
        while (b.hasRemaining()) {
            pos += ch.write(b, pos);
        }
    }

    /** The slot holding {@code h}, or the empty slot where it goes (linear probing). */
    private static int find(ByteBuffer m, int capacity, long h) {
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

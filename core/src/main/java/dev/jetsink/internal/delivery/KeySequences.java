package dev.jetsink.internal.delivery;

import static dev.jetsink.internal.delivery.TableFiles.find;
import static dev.jetsink.internal.delivery.TableFiles.slot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * For an ordered target, the {@code Jetsink-Sequence} each object's last settled event carried,
 * that event's queue sequence and a hash of its msg id (DESIGN.md "Order per object"), kept in the
 * file {@value #FILE} of the target's queue dir so they survive restarts: an open-addressing table
 * of 32-byte slots (the first 8 bytes of the key's SHA-256, never 0; the number; the queue
 * sequence; the first 8 bytes of the msg id's SHA-256), grown by doubling into a new file that
 * replaces the old one. At its largest ({@value #MAX_CAPACITY} slots, 64 MiB) a full table forgets
 * the objects settled longest ago: it is rebuilt with the newer half of its objects (by queue
 * sequence), and an object it forgot starts again at 1, as a new one does (OPERATIONS.md says how a
 * consumer reads that).
 *
 * <p>The file is written out in full when made (no holes: a store never needs new space, so a full
 * disk cannot fault it) and read and written through a memory mapping, so a killed process loses
 * nothing. Against a crash of the machine each write also goes to the journal {@value #JOURNAL}
 * (through a 64 KiB buffer), which {@link #force} forces before the queue makes resolutions durable
 * and which opening replays; past {@value #JOURNAL_MAX} bytes, or after a journal write failed, the
 * table itself is forced and the journal emptied. DESIGN.md gives the history of these choices.
 *
 * <p>Only the dispatcher's thread writes; {@link #force} may run on the queue's upkeep thread.
 */
public final class KeySequences {
    /** The table's file name in the queue dir. */
    public static final String FILE = "order-sequences";
    /** The journal's file name in the queue dir. */
    public static final String JOURNAL = "order-sequences.journal";
    private static final long JOURNAL_MAX = 64L << 20;
    private static final Logger log = LoggerFactory.getLogger(KeySequences.class);
    private static final long MAGIC = 0x4a534b5345510003L; // "JSKSEQ" and format 3
    private static final int HEADER = TableFiles.HEADER;
    private static final int SLOT = TableFiles.SLOT;
    private static final int FIRST_CAPACITY = 1 << 16;
    /** Largest table (64 MiB of slots): about 1.25 million objects at the fill it grows at. */
    static final int MAX_CAPACITY = 1 << 21;

    /** An object's last settled event: its number, its queue sequence and a hash of its msg id (all 0 when none). */
    public record Last(long number, long queueSeq, long msgIdHash) {
        static final Last NONE = new Last(0, 0, 0);
    }

    private final Path file;
    private final int maxCapacity;
    /** The objects with an event in hand (their number given out, not settled): never forgotten. */
    private Supplier<long[]> inHand = () -> new long[0];
    private volatile FileChannel channel;
    private volatile MappedByteBuffer table;
    private int capacity;
    /** Counts the mappings: a {@link #place} is good while the table it was found in is mapped. */
    private int generation;
    private int count;
    private volatile boolean broken;
    /** Slots not yet in the journal file (32 bytes each); guards itself, the journal's writes and its end. */
    private final ByteBuffer unjournaled = ByteBuffer.allocate(SLOT << 11);
    private FileChannel journal;
    private long journalEnd;
    /** Slots the journal lacks (a write of it failed): the next {@link #force} forces the table itself. */
    private boolean journalGap;
    private boolean replaying;

    private KeySequences(Path file, int maxCapacity) {
        this.file = file;
        this.maxCapacity = maxCapacity;
    }

    /**
     * Opens (or creates) the table in {@code queueDir}. A file that is not a table (damaged, or
     * another format) is set aside as {@code order-sequences.unreadable-<time>} and a new one begun:
     * the objects' sequences then start again at 1, which the error log says.
     * @throws UncheckedIOException when the file cannot be read, made or opened for writing
     */
    public static KeySequences open(Path queueDir) {
        return open(queueDir, MAX_CAPACITY);
    }

    /** {@link #open(Path)} with a table of at most {@code maxCapacity} slots (a power of two). */
    static KeySequences open(Path queueDir, int maxCapacity) {
        KeySequences s = new KeySequences(queueDir.resolve(FILE), maxCapacity);
        try {
            if (Files.exists(s.file) && !s.load()) {
                Path aside = s.file.resolveSibling(FILE + ".unreadable-" + Instant.now().toEpochMilli());
                Files.move(s.file, aside);
                log.error("order sequences file unreadable, set aside as {}: each object's Jetsink-Sequence starts again at 1",
                    aside.getFileName());
            }
            if (s.table == null) {
                TableFiles.create(s.file, MAGIC, FIRST_CAPACITY);
                s.attach(s.file, FIRST_CAPACITY);
            }
            s.replay(queueDir.resolve(JOURNAL));
        } catch (IOException e) {
            throw new UncheckedIOException("order sequences file " + s.file, e);
        }
        return s;
    }

    /** Tells it which objects have an event in hand, asked when a full table forgets objects. */
    void keepInHand(Supplier<long[]> objects) {
        this.inHand = objects;
    }

    /** Whether it still numbers: false after a write of the table failed. */
    public boolean usable() {
        return !broken;
    }

    /** {@code keyHash}'s (an object key's {@link #hash}) last settled event. */
    public Last last(long keyHash) {
        return last(place(keyHash), keyHash);
    }

    /**
     * Where object {@code keyHash}'s slot is, or the free slot it would take, found once for the
     * reads and the write of one event ({@link #last(long, long)}, {@link #settled(long, long, long, long, long)}):
     * the dispatcher's thread would otherwise probe the table twice per event. 0 is no place.
     */
    long place(long keyHash) {
        return (long) generation << 32 | find(table, capacity, keyHash);
    }

    /** {@link #last(long)} at the {@code place} found for it. */
    Last last(long place, long keyHash) {
        int at = slotAt(place, keyHash);
        return table.getLong(slot(at)) == keyHash
            ? new Last(table.getLong(slot(at) + 8), table.getLong(slot(at) + 16), table.getLong(slot(at) + 24)) : Last.NONE;
    }

    /**
     * The slot of {@code place} when it is still {@code keyHash}'s: found in this mapping, and it
     * holds the object or is still free (between rewrites a slot is only ever taken, so a free one
     * still ends the object's probe). Else found again.
     */
    private int slotAt(long place, long keyHash) {
        int at = (int) place;
        if ((int) (place >>> 32) == generation && at < capacity) {
            long there = table.getLong(slot(at));
            if (there == keyHash || there == 0) {
                return at;
            }
        }
        return find(table, capacity, keyHash);
    }

    /** The object {@code keyHash}'s event at {@code queueSeq} (msg id hash {@code msgIdHash}) settled with {@code number}. */
    public void settled(long keyHash, long number, long queueSeq, long msgIdHash) {
        settled(0, keyHash, number, queueSeq, msgIdHash);
    }

    /** {@link #settled(long, long, long, long)} at the {@code place} found for it. */
    void settled(long place, long keyHash, long number, long queueSeq, long msgIdHash) {
        boolean put = !broken && put(place, keyHash, number, queueSeq, msgIdHash);
        // broken (the table no longer written): the journal alone keeps the number, for the next open
        if (put || broken) {
            synchronized (unjournaled) {
                if (!unjournaled.hasRemaining()) {
                    try {
                        spill();
                    } catch (IOException e) {
                        // the table has the numbers (unless broken); only a crash of the machine could now lose them
                        log.error("order sequences journal {} not written ({}): the last {} numbers would not survive a crash"
                            + " of the machine", JOURNAL, e.toString(), unjournaled.capacity() / SLOT);
                    }
                }
                unjournaled.putLong(keyHash).putLong(number).putLong(queueSeq).putLong(msgIdHash);
            }
        }
    }

    /** Appends the buffered slots to the journal, unforced, and empties the buffer; the caller holds {@link #unjournaled}. */
    private void spill() throws IOException {
        unjournaled.flip();
        try {
            TableFiles.write(journal, unjournaled, journalEnd);
            journalEnd += unjournaled.limit();
        } catch (IOException e) {
            journalGap = true;
            throw e;
        } finally {
            unjournaled.clear();
        }
    }

    /** After an eviction, empties the journal (the new table is forced): no forgotten object comes back from it. */
    private void forgetJournal() {
        synchronized (unjournaled) {
            try {
                if (!replaying) {
                    unjournaled.clear();
                    emptyJournal();
                }
            } catch (IOException e) {
                log.error("order sequences journal not emptied after the table forgot objects ({}): an open before the next"
                    + " one may remember some of them", e.toString());
            }
        }
    }

    /** Empties the journal once the table holds (forced) all it held; the caller holds {@link #unjournaled}. */
    private void emptyJournal() throws IOException {
        journal.truncate(0);
        journal.force(true);
        journalEnd = 0;
        journalGap = false;
    }

    /** Writes object {@code h}'s slot into the table; false when there is no room or the write failed. */
    private boolean put(long place, long h, long number, long queueSeq, long msgIdHash) {
        int at = slotAt(place, h);
        if (table.getLong(slot(at)) != h) {
            if ((count + 1L) * 10 > capacity * 6L) {
                if (!(capacity < maxCapacity ? rebuild(capacity * 2, Long.MIN_VALUE) : rebuild(capacity, newerHalf()))) {
                    return false; // logged: the object's number is not kept
                }
                at = find(table, capacity, h);
            }
            count++;
        }
        try {
            // the values, then the key hash: a slot is taken only with its values
            table.putLong(slot(at) + 24, msgIdHash);
            table.putLong(slot(at) + 16, queueSeq);
            table.putLong(slot(at) + 8, number);
            table.putLong(slot(at), h);
            return true;
        } catch (InternalError e) {
            // a mapped page the file system could not back (a copy-on-write file system with no room left)
            broken = true;
            log.error("order sequences file {} not written ({}): messages carry no Jetsink-Sequence until the target is"
                + " opened again", file.getFileName(), e.toString());
            return false;
        }
    }

    /** Puts the journal's slots into the table (a crash of the machine may have lost them there), then empties it. */
    private void replay(Path path) throws IOException {
        journal = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        replaying = true;
        long whole = journal.size() / SLOT * SLOT; // a slot cut short by a crash was never forced: dropped
        ByteBuffer b = ByteBuffer.allocate(SLOT);
        for (long at = 0; at < whole; at += SLOT) {
            b.clear();
            while (b.hasRemaining() && journal.read(b, at + b.position()) > 0) {
                // one slot
            }
            b.flip();
            if (b.getLong(16) > last(b.getLong(0)).queueSeq() && !put(0, b.getLong(0), b.getLong(8), b.getLong(16), b.getLong(24))) {
                throw new IOException("a journal slot could not be put back into the table");
            }
        }
        table.force();
        replaying = false;
        emptyJournal();
    }

    /** The hash a msg id is kept by ({@link ObjectHashes#msgId}). */
    public static long msgIdHash(String msgId) {
        return ObjectHashes.msgId(msgId);
    }

    /** The hash a key is kept by ({@link ObjectHashes#key}). */
    public static long hash(String text) {
        return ObjectHashes.key(text);
    }

    /**
     * Makes every write so far durable: appends them to the journal and forces it (before the queue
     * makes resolutions durable, and when the target stops). Past {@value #JOURNAL_MAX} bytes the
     * table is forced and the journal emptied.
     */
    public synchronized void force() {
        try {
            synchronized (unjournaled) {
                spill();
            }
            journal.force(false);
            synchronized (unjournaled) {
                if ((journalEnd > JOURNAL_MAX || journalGap) && !broken) {
                    table.force(); // holds every slot, the journal's too: each was written there first
                    emptyJournal();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("order sequences journal " + file.resolveSibling(JOURNAL) + " not forced", e);
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
        if (header.hasRemaining() || header.getLong(0) != MAGIC || cap < FIRST_CAPACITY || cap > 1 << 25
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
            table = ch.map(FileChannel.MapMode.READ_WRITE, 0, HEADER + (long) slots * SLOT);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        FileChannel old = channel;
        channel = ch;
        capacity = slots;
        generation++;
        if (old != null) {
            old.close();
        }
    }

    /** The queue sequence that splits the table's objects into halves, from a sample of ≤ 65 536 at an even stride. */
    private long newerHalf() {
        int stride = Math.max(1, capacity / (1 << 16));
        long[] sample = new long[capacity / stride];
        int n = 0;
        for (int i = 0; i < capacity; i += stride) {
            if (table.getLong(slot(i)) != 0) {
                sample[n++] = table.getLong(slot(i) + 16);
            }
        }
        java.util.Arrays.sort(sample, 0, n);
        return n == 0 ? Long.MIN_VALUE : sample[n / 2];
    }

    /**
     * Rewrites the table as a new file of {@code slots} slots holding the objects whose last event
     * has a queue sequence of at least {@code keepFrom}: a growth keeps all, a full table at its
     * largest size the newer half.
     */
    private boolean rebuild(int slots, long keepFrom) {
        Path next = file.resolveSibling(FILE + ".next");
        try {
            long[] keep = keepFrom == Long.MIN_VALUE ? new long[0] : inHand.get();
            java.util.Arrays.sort(keep);
            int kept = TableRewrite.write(next, MAGIC, table, capacity, slots, keepFrom, keep);
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            try {
                TableFiles.forceDirectory(file.getParent());
            } catch (IOException | RuntimeException e) {
                log.warn("queue dir not forced after the order sequences table was rewritten ({}): a crash of the machine"
                    + " may bring the older table back", e.toString());
            }
            try {
                attach(file, slots);
            } catch (IOException | RuntimeException e) {
                // the old mapping is of a file no longer in the dir: numbers written there would be lost; the
                // journal keeps those already given out (settled) until the next open replays it
                broken = true;
                log.error("order sequences file {} rewritten but not mapped again ({}): messages carry no Jetsink-Sequence"
                    + " until the target is opened again", file.getFileName(), e.toString());
                return false;
            }
            if (kept < count) {
                log.info("order sequences table full at {} objects: kept the {} settled most recently; an object it forgot"
                    + " starts again at Jetsink-Sequence 1", count, kept);
                forgetJournal();
            }
            count = kept;
            return true;
        } catch (IOException | RuntimeException e) {
            // before the rename: the table in use is the old one, whole
            log.error("order sequences table could not be rewritten with {} slots: {}", slots, e.toString());
            return false;
        }
    }
}

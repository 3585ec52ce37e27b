package dev.jetsink.internal.delivery;

import static dev.jetsink.internal.delivery.TableFiles.slot;

import dev.jetsink.internal.queue.ChannelFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * <p>The file is written out in full when made (no holes: writing it in place never needs new
 * space, so a full disk cannot fail that) and mapped copy-on-write: the process reads and writes
 * its own copy of the pages it changed, which the file system never write-protects again (a shared
 * mapping's pages are, after each writeback, and the next store into each is a fault). Each write
 * also goes to the journal {@value #JOURNAL} ({@link SequenceJournal}), which {@link #force}
 * forces before the queue makes resolutions durable and which opening replays; past
 * {@value #JOURNAL_MAX} bytes, or after a journal write failed, the table's changed pages are
 * written into its file in place and forced, and the journal emptied. A killed process thus loses
 * only numbers whose resolutions were not durable either: their entries come back and get the
 * same numbers again. DESIGN.md gives the history of these choices.
 *
 * <p>Only the dispatcher's thread numbers and settles; {@link #force} may run on the queue's
 * upkeep thread.
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
    /** In a {@link #place}: its slot held the object when found. */
    private static final int OWN = 1 << 30;
    /** Largest table (64 MiB of slots): about 1.25 million objects at the fill it grows at. */
    static final int MAX_CAPACITY = 1 << 21;

    /** An object's last settled event: its number, its queue sequence and a hash of its msg id (all 0 when none). */
    public record Last(long number, long queueSeq, long msgIdHash) {
        static final Last NONE = new Last(0, 0, 0);
    }

    private final Path file;
    private final int maxCapacity;
    private final long journalMax;
    private final ChannelFactory channels;
    /** The objects with an event in hand (their number given out, not settled): never forgotten. */
    private Supplier<long[]> inHand = () -> new long[0];
    private volatile FileChannel channel;
    private volatile MappedByteBuffer table;
    private int capacity;
    /** Counts the mappings: a {@link #place} is good while the table it was found in is mapped. */
    private int generation;
    /** Which slots hold an object; made anew with each mapping. */
    private TakenSlots taken;
    private volatile boolean broken;
    /** Guards the table's writes, its pages' bits, its file and the journal. */
    private final Object lock = new Object();
    /** The table's pages changed since they were last written to its file. */
    private DirtyPages dirty;
    /** After a rewrite failed: how many new objects come before the next is tried. */
    private int rewriteWait;
    private SequenceJournal journal;
    private boolean replaying;

    private KeySequences(Path file, int maxCapacity, long journalMax, ChannelFactory channels) {
        this.channels = channels;
        this.file = file;
        this.maxCapacity = maxCapacity;
        this.journalMax = journalMax;
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
        return open(queueDir, maxCapacity, JOURNAL_MAX, ChannelFactory.DEFAULT);
    }

    /** {@link #open(Path, int)}: the journal emptied past {@code journalMax} bytes, the table opened by {@code channels}. */
    static KeySequences open(Path queueDir, int maxCapacity, long journalMax, ChannelFactory channels) {
        KeySequences s = new KeySequences(queueDir.resolve(FILE), maxCapacity, journalMax, channels);
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

    /** Whether it still numbers: false after a rewritten table could not be mapped again. */
    public boolean usable() {
        return !broken;
    }

    /** {@code keyHash}'s (an object key's {@link #hash}) last settled event. */
    public Last last(long keyHash) {
        return last(place(keyHash), keyHash);
    }

    /** Object {@code keyHash}'s slot, or the free one it would take, found once for an event's read and write; 0 is none. */
    long place(long keyHash) {
        int at = taken.find(table, keyHash);
        return (long) generation << 32 | (taken.taken(at) ? OWN : 0) | at;
    }

    /** {@link #last(long)} at the {@code place} found for it. */
    Last last(long place, long keyHash) {
        int at = slotAt(place, keyHash);
        return taken.taken(at)
            ? new Last(table.getLong(slot(at) + 8), table.getLong(slot(at) + 16), table.getLong(slot(at) + 24)) : Last.NONE;
    }

    /**
     * The slot of {@code place} when it is still {@code keyHash}'s, read from the bits, not the
     * table: found in this mapping, and it held the object then (between rewrites a slot never
     * changes object) or is still free (then it still ends the object's probe). Else found again.
     */
    private int slotAt(long place, long keyHash) {
        int at = (int) place & (OWN - 1);
        if ((int) (place >>> 32) == generation && at < capacity && ((place & OWN) != 0 || !taken.taken(at))) {
            return at;
        }
        return taken.find(table, keyHash);
    }

    /** The object {@code keyHash}'s event at {@code queueSeq} (msg id hash {@code msgIdHash}) settled with {@code number}. */
    public void settled(long keyHash, long number, long queueSeq, long msgIdHash) {
        settled(0, keyHash, number, queueSeq, msgIdHash);
    }

    /** {@link #settled(long, long, long, long)} at the {@code place} found for it. */
    void settled(long place, long keyHash, long number, long queueSeq, long msgIdHash) {
        synchronized (lock) {
            boolean put = !broken && put(place, keyHash, number, queueSeq, msgIdHash);
            // broken (the table no longer written, perhaps by this put's rewrite): the journal alone keeps the number
            if (put || broken) {
                journal.add(keyHash, number, queueSeq, msgIdHash);
            }
        }
    }

    /** Writes object {@code h}'s slot into the table; false when there is no room. The caller holds {@link #lock}. */
    private boolean put(long place, long h, long number, long queueSeq, long msgIdHash) {
        int at = slotAt(place, h);
        if (!taken.taken(at)) {
            int count = taken.count();
            if ((count + 1L) * 10 > capacity * 6L && --rewriteWait < 0) {
                boolean rebuilt = capacity < maxCapacity ? rebuild(capacity * 2, Long.MIN_VALUE)
                    : rebuild(capacity, TableRewrite.newerHalf(table, capacity));
                if (broken) {
                    return false;
                }
                rewriteWait = rebuilt ? 0 : capacity / 64; // not rewritten (a full disk): goes on here, tries again later
                at = taken.find(table, h);
            }
            if ((count + 1L) * 8 > capacity * 7L) {
                return false; // the table could not grow and is 7/8 full: the object's number is not kept
            }
            taken.take(at);
        }
        table.putLong(slot(at) + 24, msgIdHash);
        table.putLong(slot(at) + 16, queueSeq);
        table.putLong(slot(at) + 8, number);
        table.putLong(slot(at), h);
        dirty.mark(slot(at));
        return true;
    }

    /** Puts the journal's slots into the table (a crash may have lost them there), writes the table, empties the journal. */
    private void replay(Path path) throws IOException {
        journal = SequenceJournal.open(path);
        replaying = true;
        synchronized (lock) {
            journal.replay((keyHash, number, queueSeq, msgIdHash) -> {
                if (queueSeq > last(keyHash).queueSeq() && !put(0, keyHash, number, queueSeq, msgIdHash)) {
                    throw new IOException("a journal slot could not be put back into the table");
                }
            });
        }
        replaying = false;
        writeTable();
        journal.empty();
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
     * makes resolutions durable, and when the target stops). Past {@value #JOURNAL_MAX} bytes, or
     * when the journal could not be written, the table's changed pages are written into its file
     * and forced, and the journal emptied.
     * @throws UncheckedIOException when neither the journal nor the table could be made durable
     */
    public synchronized void force() {
        IOException journalFailed = null;
        try {
            synchronized (lock) {
                journal.spill();
            }
            journal.force();
        } catch (IOException e) {
            journalFailed = e;
        }
        synchronized (lock) {
            if (broken || journal.size() <= journalMax && !journal.gap()) {
                if (journalFailed != null || broken && journal.gap()) {
                    throw new UncheckedIOException("order sequences journal " + JOURNAL + " not forced",
                        journalFailed != null ? journalFailed : new IOException("a journal write failed and the table is not mapped"));
                }
                return;
            }
            journal.hold();
        }
        boolean written = false;
        try {
            writeTable();
            written = true;
        } catch (IOException e) {
            throw new UncheckedIOException("order sequences file " + file + " not written", e);
        } finally {
            synchronized (lock) {
                try {
                    journal.release(written);
                } catch (IOException e) {
                    log.warn("order sequences journal not emptied ({}): the next force tries again", e.toString());
                }
            }
        }
        if (journalFailed != null) {
            log.warn("order sequences journal {} not written ({}): the table itself was forced instead", JOURNAL, journalFailed.toString());
        }
    }

    /**
     * Writes the table's changed pages into its file, in place, a few at a time under {@link #lock}
     * (a settlement waits for one run at most, and no slot is written half), then forces the file.
     * A rewrite meanwhile wrote and forced a whole new file: nothing is left to do then.
     */
    private void writeTable() throws IOException {
        FileChannel ch;
        int mapping;
        DirtyPages written;
        synchronized (lock) {
            written = new DirtyPages(table.capacity());
        }
        for (int page = 0; ; ) {
            synchronized (lock) {
                if (broken) {
                    throw new IOException("the table is not mapped");
                }
                page = dirty.writeNext(table, channel, page, 16, written);
                if (page < 0) {
                    ch = channel;
                    mapping = generation;
                    break;
                }
            }
        }
        try {
            ch.force(false);
        } catch (IOException e) {
            synchronized (lock) {
                if (generation == mapping) {
                    // Linux marks pages whose writeback failed clean: write them again next time
                    dirty.add(written);
                    throw e;
                }
            }
        }
    }

    private boolean load() throws IOException {
        long cap = TableFiles.slotsOf(file, MAGIC);
        if (cap < FIRST_CAPACITY || cap > 1 << 25) {
            return false;
        }
        attach(file, (int) cap);
        return true;
    }

    /** Opens {@code path}, a table of {@code slots} slots as its file holds it, for writing and maps it. */
    private void attach(Path path, int slots) throws IOException {
        FileChannel ch = channels.open(path, java.util.Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE));
        try {
            // copy-on-write: the pages it changes stay the process's own until writeTable copies them into the file
            table = ch.map(FileChannel.MapMode.PRIVATE, 0, HEADER + (long) slots * SLOT);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        FileChannel old = channel;
        channel = ch;
        dirty = new DirtyPages(table.capacity());
        taken = TakenSlots.of(table, slots);
        capacity = slots;
        generation++;
        if (old != null) {
            old.close();
        }
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
            int count = taken.count();
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
                if (!replaying) {
                    journal.forget(); // the new table is forced: no forgotten object comes back from the journal
                }
            }
            return true;
        } catch (IOException | RuntimeException e) {
            // before the rename: the table in use is the old one, whole
            log.error("order sequences table could not be rewritten with {} slots ({}): objects go on into the {} slots it"
                + " has until 7/8 are taken, and the rewrite is tried again meanwhile", slots, e.toString(), capacity);
            return false;
        }
    }
}

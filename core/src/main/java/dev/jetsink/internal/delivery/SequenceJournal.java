package dev.jetsink.internal.delivery;

import static dev.jetsink.internal.delivery.TableFiles.SLOT;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal of a {@link KeySequences} table: every slot the table was written with, appended
 * through a 64 KiB buffer (written to the file unforced when full), so the numbers the table
 * holds only in the process are on disk once {@link #force} returned, and an open puts them back.
 * Emptied once the table file holds them all.
 *
 * <p>Not thread-safe: its owner's lock guards it, except {@link #force}, which may run beside an
 * append (a positional write and an fsync of one channel).
 */
final class SequenceJournal {
    private static final Logger log = LoggerFactory.getLogger(SequenceJournal.class);
    private static final int BUFFER = SLOT << 11;
    /** Most the buffer grows to while held ({@link #hold}); past it, slots go to the file and the hold fails. */
    private static final int HELD_MAX = 4 << 20;

    /** What a replay hands each slot to. */
    interface Slot {
        void accept(long keyHash, long number, long queueSeq, long msgIdHash) throws IOException;
    }

    private final String name;
    private final FileChannel channel;
    /** Slots not yet in the file (32 bytes each). */
    private ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
    private long end;
    /** Slots the file lacks (a write of it failed): only the table file itself can now make them durable. */
    private volatile boolean gap;
    private boolean held;
    private boolean spilledWhileHeld;

    private SequenceJournal(Path path, FileChannel channel) {
        this.name = path.getFileName().toString();
        this.channel = channel;
    }

    /** Opens (or creates) the journal at {@code path}. */
    static SequenceJournal open(Path path) throws IOException {
        return new SequenceJournal(path, FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE));
    }

    /** Hands each whole slot of the file to {@code to}, oldest first: a slot cut short by a crash was never forced and is dropped. */
    void replay(Slot to) throws IOException {
        long whole = channel.size() / SLOT * SLOT;
        ByteBuffer b = ByteBuffer.allocate(SLOT);
        for (long at = 0; at < whole; at += SLOT) {
            b.clear();
            while (b.hasRemaining() && channel.read(b, at + b.position()) > 0) {
                // one slot
            }
            to.accept(b.getLong(0), b.getLong(8), b.getLong(16), b.getLong(24));
        }
    }

    /** Appends a slot; a failed write of the full buffer is logged and leaves a {@link #gap}. */
    void add(long keyHash, long number, long queueSeq, long msgIdHash) {
        if (!buffer.hasRemaining()) {
            if (held && buffer.capacity() < HELD_MAX) {
                buffer = ByteBuffer.allocate(buffer.capacity() * 2).put(buffer.flip());
            } else {
                spilledWhileHeld |= held;
                try {
                    spill();
                } catch (IOException e) {
                    log.error("order sequences journal {} not written ({}): the table's next force writes the numbers"
                        + " instead", name, e.toString());
                }
            }
        }
        buffer.putLong(keyHash).putLong(number).putLong(queueSeq).putLong(msgIdHash);
    }

    /** Writes the buffered slots to the file, unforced, and empties the buffer (a failure leaves a {@link #gap}). */
    void spill() throws IOException {
        buffer.flip();
        try {
            TableFiles.write(channel, buffer, end);
            end += buffer.limit();
        } catch (IOException e) {
            gap = true;
            throw e;
        } finally {
            buffer.clear();
        }
    }

    /** Forces what {@link #spill} wrote; a failure leaves a {@link #gap}. */
    void force() throws IOException {
        try {
            channel.force(false);
        } catch (IOException e) {
            gap = true;
            throw e;
        }
    }

    /** The file's length. */
    long size() {
        return end;
    }

    /** Whether a write or force of the file failed since it was last emptied. */
    boolean gap() {
        return gap;
    }

    /**
     * From now until {@link #release}, slots stay in the buffer (grown up to 4 MiB), so that
     * emptying the file then drops none added meanwhile: the table's pages are being written.
     */
    void hold() {
        held = true;
        spilledWhileHeld = false;
    }

    /**
     * Ends a {@link #hold}; with {@code tableDurable} (the table file now holds every slot the file
     * does) the file is emptied, unless slots went to it during the hold.
     * @return whether the file was emptied
     */
    boolean release(boolean tableDurable) throws IOException {
        held = false;
        if (tableDurable && !spilledWhileHeld) {
            empty();
            return true;
        }
        return false;
    }

    /** Drops every slot, buffered or in the file: the table forgot objects and was forced, and they must not come back. */
    void forget() {
        buffer.clear();
        try {
            empty();
        } catch (IOException e) {
            log.error("order sequences journal {} not emptied after the table forgot objects ({}): an open before the next"
                + " one may remember some of them", name, e.toString());
        }
    }

    /** Empties the file: the table file holds all it held. */
    void empty() throws IOException {
        channel.truncate(0);
        channel.force(true);
        end = 0;
        gap = false;
    }
}

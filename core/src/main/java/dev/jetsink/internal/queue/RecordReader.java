package dev.jetsink.internal.queue;

import dev.jetsink.QueueStoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads live records of a {@link SegmentedQueue} back from their segments, for the dispatcher's
 * pages and payloads. Records that lie end to end are read together, up to {@value #RUN_BYTES}
 * bytes a read, and a payload read from disk brings the records behind it into memory, so a
 * backlog drains with one read per run, not two per record (the page lists an entry, the publish
 * needs its payload). A record that fails its checksum or cannot be decoded is counted and logged
 * once, left out of pages and stays queued; reading its payload fails.
 */
final class RecordReader {

    private static final Logger LOG = LoggerFactory.getLogger(RecordReader.class);
    /** The most one read fetches (a record larger than this is read alone). */
    static final int RUN_BYTES = 256 * 1024;
    /** Live records looked at for one read ahead of the dispatcher. */
    private static final int RUN_RECORDS = 512;

    /** Where a live record lies: its segment's reader channel, offset and length. */
    record Location(long seq, FileChannel channel, int offset, int length) {
    }

    /** A record read back from its segment; {@code null} for one damaged or no longer live. */
    private record ReadBack(QueuedEntry entry, byte[] payload) {
    }

    private final SegmentedQueue queue;
    private final RecentRecords recent;
    private final RecentRecords ahead;
    private final LongAdder diskReads = new LongAdder();

    RecordReader(SegmentedQueue queue, long heldBytes) {
        this.queue = queue;
        this.recent = new RecentRecords(heldBytes);
        // what a test reads from disk record by record (heldBytes 0) it also reads without read-ahead
        this.ahead = new RecentRecords(Math.min(heldBytes, 4L * RUN_BYTES));
    }

    RecentRecords recent() {
        return recent;
    }

    /** Reads from segment files so far (each fetches one run of records). */
    long diskReads() {
        return diskReads.sum();
    }

    /** The record is resolved: neither holder keeps it. */
    void forget(long seq) {
        recent.forget(seq);
        ahead.forget(seq);
    }

    List<QueuedEntry> live(long afterSeq, int max) {
        List<QueuedEntry> out = new ArrayList<>();
        long after = afterSeq;
        // an entry resolved meanwhile or found damaged is left out; look further so a short page
        // still means the end of the queue
        while (out.size() < max) {
            List<Long> seqs = queue.liveAfter(after, max - out.size());
            if (seqs.isEmpty()) {
                break;
            }
            int k = 0;
            while (k < seqs.size()) {
                Optional<RecentRecords.Held> held = heldCopy(seqs.get(k));
                if (held.isPresent()) {
                    out.add(held.get().entry());
                    k++;
                    continue;
                }
                List<ReadBack> run = readRun(seqs, k, false);
                for (ReadBack r : run) {
                    if (r.entry() != null) {
                        out.add(r.entry());
                    }
                }
                k += run.size();
            }
            after = seqs.get(seqs.size() - 1);
        }
        return out;
    }

    byte[] read(QueuedEntry entry) {
        long seq = entry.seq();
        Optional<RecentRecords.Held> held = recent.get(seq).or(() -> ahead.take(seq));
        if (held.isPresent()) {
            return held.get().payload();
        }
        List<Long> seqs = queue.liveAfter(seq - 1, RUN_RECORDS);
        ReadBack wanted = null;
        if (!seqs.isEmpty() && seqs.get(0) == seq) {
            List<ReadBack> run = readRun(seqs, 0, true);
            wanted = run.get(0);
            for (int k = 1; k < run.size(); k++) {
                ReadBack r = run.get(k);
                if (r.entry() != null) {
                    ahead.hold(r.entry(), r.payload());
                }
            }
        }
        if (wanted == null || wanted.entry() == null) {
            throw new NoSuchElementException("entry " + seq + " is not live in " + queue.directory());
        }
        return wanted.payload();
    }

    private Optional<RecentRecords.Held> heldCopy(long seq) {
        return recent.get(seq).or(() -> ahead.get(seq));
    }

    /**
     * Reads {@code seqs[from]} and the live records lying end to end behind it in one read: one
     * result per record read (an entry of {@code null} for one found damaged while listing), at
     * least one; payloads only when {@code forPayload}, and then the first record, if damaged,
     * fails the read.
     */
    private List<ReadBack> readRun(List<Long> seqs, int from, boolean forPayload) {
        for (int attempt = 0; ; attempt++) {
            try {
                List<Location> run = queue.locateRun(seqs, from, RUN_BYTES);
                if (run.isEmpty()) {
                    return List.of(new ReadBack(null, null)); // resolved meanwhile
                }
                Location first = run.get(0);
                Location last = run.get(run.size() - 1);
                ByteBuffer buf = ByteBuffer.allocate(last.offset() + last.length() - first.offset());
                Segment.readFully(first.channel(), buf, first.offset());
                diskReads.increment();
                List<ReadBack> out = new ArrayList<>(run.size());
                for (Location at : run) {
                    ByteBuffer record = buf.slice(at.offset() - first.offset(), at.length());
                    out.add(decode(at.seq(), record, forPayload, forPayload && at == first));
                }
                return out;
            } catch (ClosedByInterruptException e) {
                // this thread's interrupt closed the shared channel; the next read reopens it
                throw new QueueStoreException("interrupted while reading queue record " + seqs.get(from) + " in "
                    + queue.directory(), e);
            } catch (ClosedChannelException e) {
                // compaction swapped the segment file under us, or another reader was interrupted; look again
                // (each attempt reopens the channel; only a stream of interrupts by other readers, or
                // a closed queue, ends this — the test with a reader interrupting itself every 7th
                // read once exhausted 4 attempts)
                if (queue.closedNow()) {
                    throw new QueueStoreException("queue " + queue.directory() + " is closed", e);
                }
                if (attempt > 100) {
                    throw new QueueStoreException("queue record " + seqs.get(from) + " in " + queue.directory()
                        + " could not be read: its segment kept being closed under the read", e);
                }
            } catch (IOException | RuntimeException e) {
                if (e instanceof QueueStoreException q) {
                    throw q;
                }
                throw new QueueStoreException("cannot read queue record " + seqs.get(from) + " in "
                    + queue.directory() + ": " + e, e);
            }
        }
    }

    /** One record as read; damage fails a record the caller wants, else leaves it out. */
    private ReadBack decode(long seq, ByteBuffer record, boolean withPayload, boolean wanted) {
        int length = record.limit();
        if (RecordCodec.validBodyLength(record, 0) != length - RecordCodec.RECORD_PREFIX_BYTES) {
            reportDamage(seq);
            if (wanted) {
                throw new QueueStoreException("queue record " + seq + " in " + queue.directory() + " fails its checksum");
            }
            return new ReadBack(null, null); // it stays queued; the entries behind it still page
        }
        Optional<RecordCodec.Decoded> decoded = RecordCodec.tryDecode(record);
        if (decoded.isEmpty()) {
            // checksum-valid but not a record this version can read (crafted, or another format)
            reportDamage(seq);
            if (wanted) {
                throw new QueueStoreException("queue record " + seq + " in " + queue.directory() + " cannot be decoded");
            }
            return new ReadBack(null, null);
        }
        RecordCodec.Decoded d = decoded.get();
        if (!withPayload) {
            return new ReadBack(d.entry(), null);
        }
        byte[] payload = new byte[d.payloadLength()];
        record.get(d.payloadOffset(), payload);
        return new ReadBack(d.entry(), payload);
    }

    /** Counts and logs a record that went bad after recovery, once per record however often it is read. */
    private void reportDamage(long seq) {
        if (queue.markDamaged(seq)) {
            queue.counters().corrupt(1);
            LOG.error("queue record {} in {} fails its checksum or cannot be decoded; it stays queued", seq, queue.directory());
        }
    }
}

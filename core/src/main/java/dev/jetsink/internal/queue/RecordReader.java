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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads live records of a {@link SegmentedQueue} back from their segments, for the dispatcher's
 * pages and payloads. A record that fails its checksum or cannot be decoded is counted and logged
 * once, left out of pages and stays queued; reading its payload fails.
 */
final class RecordReader {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentedQueue.class);

    /** Where a live record lies: its segment's reader channel, offset and length. */
    record Location(FileChannel channel, int offset, int length) {
    }

    /** A record read back from its segment. */
    private record ReadBack(QueuedEntry entry, byte[] payload) {
    }

    private final SegmentedQueue queue;
    private final RecentRecords recent;

    RecordReader(SegmentedQueue queue, long heldBytes) {
        this.queue = queue;
        this.recent = new RecentRecords(heldBytes);
    }

    RecentRecords recent() {
        return recent;
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
            for (long seq : seqs) {
                readRecord(seq, false).ifPresent(r -> out.add(r.entry()));
            }
            after = seqs.get(seqs.size() - 1);
        }
        return out;
    }

    byte[] read(QueuedEntry entry) {
        return readRecord(entry.seq(), true)
            .map(ReadBack::payload)
            .orElseThrow(() -> new NoSuchElementException("entry " + entry.seq() + " is not live in " + queue.directory()));
    }

    private Optional<ReadBack> readRecord(long seq, boolean withPayload) {
        Optional<RecentRecords.Held> held = recent.get(seq);
        if (held.isPresent()) {
            return Optional.of(new ReadBack(held.get().entry(), withPayload ? held.get().payload() : null));
        }
        for (int attempt = 0; ; attempt++) {
            try {
                Optional<Location> at = queue.locate(seq);
                if (at.isEmpty()) {
                    return Optional.empty();
                }
                int length = at.get().length();
                ByteBuffer buf = ByteBuffer.allocate(length);
                Segment.readFully(at.get().channel(), buf, at.get().offset());
                if (RecordCodec.validBodyLength(buf, 0) != length - RecordCodec.RECORD_PREFIX_BYTES) {
                    reportDamage(seq);
                    if (!withPayload) {
                        // listing: skip it so the entries behind it still page; it stays queued
                        return Optional.empty();
                    }
                    throw new QueueStoreException("queue record " + seq + " in " + queue.directory() + " fails its checksum");
                }
                Optional<RecordCodec.Decoded> decoded = RecordCodec.tryDecode(buf);
                if (decoded.isEmpty()) {
                    // checksum-valid but not a record this version can read (crafted, or another format)
                    reportDamage(seq);
                    if (!withPayload) {
                        return Optional.empty();
                    }
                    throw new QueueStoreException("queue record " + seq + " in " + queue.directory() + " cannot be decoded");
                }
                RecordCodec.Decoded d = decoded.get();
                byte[] payload = withPayload ? new byte[d.payloadLength()] : null;
                if (payload != null) {
                    buf.get(d.payloadOffset(), payload);
                }
                return Optional.of(new ReadBack(d.entry(), payload));
            } catch (ClosedByInterruptException e) {
                // this thread's interrupt closed the shared channel; the next read reopens it
                throw new QueueStoreException("interrupted while reading queue record " + seq + " in " + queue.directory(), e);
            } catch (ClosedChannelException e) {
                // compaction swapped the segment file under us, or another reader was interrupted; look again
                // (each attempt reopens the channel; only a stream of interrupts by other readers, or
                // a closed queue, ends this — the test with a reader interrupting itself every 7th
                // read once exhausted 4 attempts)
                if (queue.closedNow()) {
                    throw new QueueStoreException("queue " + queue.directory() + " is closed", e);
                }
                if (attempt > 100) {
                    throw new QueueStoreException("queue record " + seq + " in " + queue.directory()
                        + " could not be read: its segment kept being closed under the read", e);
                }
            } catch (IOException | RuntimeException e) {
                if (e instanceof QueueStoreException q) {
                    throw q;
                }
                throw new QueueStoreException("cannot read queue record " + seq + " in " + queue.directory() + ": " + e, e);
            }
        }
    }

    /** Counts and logs a record that went bad after recovery, once per record however often it is read. */
    private void reportDamage(long seq) {
        if (queue.markDamaged(seq)) {
            queue.counters().corrupt(1);
            LOG.error("queue record {} in {} fails its checksum or cannot be decoded; it stays queued", seq, queue.directory());
        }
    }
}

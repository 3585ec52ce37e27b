package dev.jetsink.internal.queue;

import dev.jetsink.QueueStoreException;

import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.time.LogThrottle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the queue's records with group commit. A writer thread takes every append submitted
 * since its last fsync, writes them with one positional write and covers them with one
 * {@code force}, then completes their futures. When the writer is idle and nothing is queued, the
 * producer writes and forces its own record on its own thread instead: a lone producer pays for
 * one fsync and no thread hand-off, and nothing ever waits for company (an interrupted producer
 * always hands off: its interrupt would close the channel for everyone). All file work happens
 * under one lock, so records are written in sequence order either way. A failed write or force
 * fails the whole batch and rolls to a new segment (DESIGN.md "Queue").
 *
 * <p>Futures are completed only after the lock is released, by the thread that wrote the batch:
 * whatever a caller chained onto one cannot hold up the next write. Callers outside the queue
 * hand them on to their own executor (the sink's receipts thread) before chaining user code.
 * While a batch's futures are being completed no producer takes the lone-producer path: the
 * producers those completions wake queue their next appends, and the next force covers them
 * together, as when completion ran under the lock.
 */
final class GroupCommitWriter implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitWriter.class);
    /** Bound on one write so a burst of large payloads does not build a huge buffer. */
    private static final int MAX_BATCH_BYTES = 8 * 1024 * 1024;
    private static final int MAX_BATCH_RECORDS = 4096;
    /**
     * Zeros kept written ahead of the active segment's records. A force of a file that grew since
     * the last one must also commit the file system's journal (new size, new blocks); within space
     * already written it flushes data blocks only. Measured on this project's ext4 disk with 9
     * records of 1.3 KiB per fsync while another process appended and synced: about half the CPU
     * and half the median latency per fsync, p99 1.5-2.3 down to 1.1-1.2 ms (docs/BENCHMARKS.md).
     */
    static final int WRITE_AHEAD_BYTES = 256 * 1024;
    /** Direct, so no thread that writes them keeps a temporary direct copy of its own (the JDK caches one per thread). */
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(WRITE_AHEAD_BYTES).asReadOnlyBuffer();

    /** One submitted append. {@code stop} marks the close request. */
    record Pending(String msgId, EntryAttributes attributes, long queuedAtMs, EventMetadata metadata, byte[] payload, int size,
                   CompletableFuture<QueuedEntry> future, boolean stop) {
        /** The entry this record is once durable as {@code seq}. */
        QueuedEntry entry(long seq) {
            return new QueuedEntry(seq, msgId, Instant.ofEpochMilli(queuedAtMs), metadata, payload.length, attributes);
        }
    }

    static final Pending STOP = new Pending("-", EntryAttributes.NONE, 0, null, null, 0, null, true);

    private final SegmentedQueue queue;
    private final SegmentFiles files;
    private final QueueOptions options;
    private final LinkedBlockingQueue<Pending> pending = new LinkedBlockingQueue<>();
    /** Threads completing a written batch's futures right now (the lock is released by then). */
    private final AtomicInteger completing = new AtomicInteger();
    /** Guards the segment files and every field below. */
    private final ReentrantLock io = new ReentrantLock();
    private Segment active;
    private long writePos;
    /** End of what the active segment's file holds: its records end at {@link #writePos}, zeros follow. */
    private long allocated;
    /** Cleared for the rest of a segment when writing zeros ahead failed (a nearly full disk). */
    private boolean writingAhead;
    private long nextSeq;
    private ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);

    GroupCommitWriter(SegmentedQueue queue, SegmentFiles files, QueueOptions options, long nextSeq) {
        this.queue = queue;
        this.files = files;
        this.options = options;
        this.nextSeq = nextSeq;
        this.failures = new LogThrottle(options.clock(), LogThrottle.TEN_SECONDS);
    }

    void submit(Pending p) {
        // an interrupted producer must not touch the segment: the interrupt would close the shared
        // writer channel, fail every append of its batch and roll the segment
        // ...nor take the lone-producer path while a batch's futures are being completed: the
        // producers those completions wake would each write alone; queued, they share the next force
        if (!p.stop() && !Thread.currentThread().isInterrupted() && completing.get() == 0 && pending.isEmpty()
                && io.tryLock()) {
            List<Pending> batch = new ArrayList<>();
            Object[] outcomes;
            try {
                // appends that arrived meanwhile ride along with this fsync
                batch.add(p);
                drainInto(batch);
                if (batch.removeIf(Pending::stop)) {
                    // cannot happen while close() waits on the submit gate; hand it back to the writer thread
                    pending.add(STOP);
                }
                outcomes = write(batch);
                completing.incrementAndGet();
            } finally {
                io.unlock();
            }
            complete(batch, outcomes);
            return;
        }
        pending.add(p);
    }

    @Override
    public void run() {
        List<Pending> batch = new ArrayList<>();
        boolean stopping = false;
        while (!stopping) {
            try {
                batch.add(pending.take());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            Object[] outcomes;
            io.lock();
            try {
                // take what queued up while a producer held the lock, so one fsync covers it all
                drainInto(batch);
                stopping = batch.removeIf(Pending::stop);
                outcomes = write(batch);
                completing.incrementAndGet();
            } finally {
                io.unlock();
            }
            complete(batch, outcomes);
            batch.clear();
        }
        io.lock();
        try {
            if (active != null) {
                trimWriteAhead();
                SegmentFiles.closeQuietly(active.writer);
                active.writer = null;
            }
        } finally {
            io.unlock();
        }
    }

    /** One error line per 10 s for repeated write failures (a full disk fails every batch). */
    private final LogThrottle failures;

    /**
     * Writes and forces {@code batch}; returns, per append, its {@link QueuedEntry} or the
     * {@link QueueStoreException} that failed it, for {@link #complete} once the lock is released.
     */
    private Object[] write(List<Pending> batch) {
        Object[] outcomes = new Object[batch.size()];
        int i = 0;
        while (i < batch.size()) {
            try {
                if (active == null || rollNeeded(batch.get(i).size)) {
                    roll();
                }
            } catch (IOException | RuntimeException e) {
                fail(outcomes, i, new QueueStoreException("could not start a new queue segment: " + e.getMessage(), e));
                return outcomes;
            }
            int end = i;
            long bytes = writePos;
            long seqs = nextSeq - active.firstSeq;
            int batchBytes = 0;
            while (end < batch.size() && (end == i || (bytes + batch.get(end).size <= options.segmentMaxBytes()
                && seqs < options.segmentMaxRecords() && batchBytes + batch.get(end).size <= MAX_BATCH_BYTES))) {
                bytes += batch.get(end).size;
                batchBytes += batch.get(end).size;
                seqs++;
                end++;
            }
            long firstSeq = nextSeq;
            ensureCapacity(batchBytes);
            buffer.clear();
            for (int k = i; k < end; k++) {
                Pending p = batch.get(k);
                RecordCodec.encode(buffer, nextSeq++, p.msgId(), p.queuedAtMs(), p.metadata(), p.payload(), p.attributes());
            }
            buffer.flip();
            long start = writePos;
            try {
                Segment.writeFully(active.writer, buffer, start);
                writeAhead(start + batchBytes);
                active.writer.force(false);
            } catch (IOException | RuntimeException e) {
                long held = failures.admit();
                if (held >= 0) {
                    LOG.error("queue write or fsync failed in {}; failing {} appends and rolling to a new segment"
                        + " (same failure {} more time(s) in the last {} s)", active.log, batch.size() - i, held,
                        LogThrottle.TEN_SECONDS.toSeconds(), e);
                }
                Segment failed = active;
                active = null;
                // The failed batch may have left part of a record (ENOSPC writes what fits): cut it
                // off, so the segment ends at its last good record and is not read as damaged later.
                try {
                    failed.writer.truncate(start);
                } catch (IOException | RuntimeException t) {
                    unwrite(failed, start, buffer.limit(), t);
                }
                SegmentFiles.closeQuietly(failed.writer);
                failed.writer = null;
                queue.writeFailed(failed, firstSeq, nextSeq);
                fail(outcomes, i, new QueueStoreException("queue write or fsync failed: " + e.getMessage(), e));
                return outcomes;
            }
            writePos += batchBytes;
            queue.committed(active, batch.subList(i, end), firstSeq, start, outcomes, i);
            i = end;
        }
        return outcomes;
    }

    /** Completes the futures of a written batch; called without the lock, after {@code completing} was raised. */
    private void complete(List<Pending> batch, Object[] outcomes) {
        try {
            for (int i = 0; i < outcomes.length; i++) {
                CompletableFuture<QueuedEntry> future = batch.get(i).future();
                if (outcomes[i] instanceof QueuedEntry entry) {
                    future.complete(entry);
                } else {
                    future.completeExceptionally((Throwable) outcomes[i]);
                }
            }
        } finally {
            completing.decrementAndGet();
        }
    }

    /** Moves queued appends (and a stop request, if queued) into {@code batch}. */
    private void drainInto(List<Pending> batch) {
        for (Pending q; batch.size() < MAX_BATCH_RECORDS && (q = pending.poll()) != null; ) {
            batch.add(q);
        }
    }

    private boolean rollNeeded(int nextSize) {
        boolean hasRecords = writePos > RecordCodec.SEGMENT_HEADER_BYTES;
        return nextSeq - active.firstSeq >= options.segmentMaxRecords()
            || (hasRecords && writePos + nextSize > options.segmentMaxBytes());
    }

    private void roll() throws IOException {
        if (active != null) {
            trimWriteAhead();
            SegmentFiles.closeQuietly(active.writer);
            active.writer = null;
            queue.sealed(active);
            active = null;
        }
        long first = nextSeq;
        // a failed create may leave a file behind; never try the same name twice
        nextSeq++;
        Segment s = files.create(first);
        nextSeq = first;
        writePos = RecordCodec.SEGMENT_HEADER_BYTES;
        allocated = writePos;
        writingAhead = true;
        queue.add(s);
        active = s;
    }

    /**
     * Once records reach past the zeros written ahead, writes the next {@link #WRITE_AHEAD_BYTES}
     * of zeros behind them (never past the segment's size bound), before the force that covers
     * the records. Best effort: a disk too full for the zeros still takes the records, and the
     * segment goes on without writing ahead.
     */
    private void writeAhead(long end) {
        if (end <= allocated) {
            return;
        }
        allocated = end;
        long target = Math.max(end, Math.min(end + WRITE_AHEAD_BYTES, options.segmentMaxBytes()));
        if (!writingAhead || target == end) {
            return;
        }
        try {
            writeZeros(active.writer, end, target - end);
            allocated = target;
        } catch (IOException | RuntimeException e) {
            // a closed channel fails the force that follows; anything else only ends writing ahead
            // (some zeros may have been written: leaving the segment cuts whatever follows the records)
            writingAhead = false;
            allocated = Long.MAX_VALUE;
            LOG.debug("queue segment {}: writing ahead stopped error=\"{}\"", active.log, e.toString());
        }
    }

    /**
     * The failed write could not be cut off: overwrite it with zeros instead. Within space the
     * writer already filled this needs no new blocks, so it works on a full disk; the next start
     * then cuts zeros, not half a record. When this fails too (a failing disk), the half record
     * stays: the newest segment's tail is cut as torn at the next start, an older one's is
     * reported as damage and kept.
     */
    private void unwrite(Segment failed, long start, int length, Throwable cutFailure) {
        try {
            writeZeros(failed.writer, start, length);
            failed.writer.force(false);
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not cut the failed write off {} nor overwrite it error=\"{}\" then \"{}\"", failed.log,
                cutFailure.toString(), e.toString());
        }
    }

    private static void writeZeros(java.nio.channels.FileChannel ch, long from, long length) throws IOException {
        for (long pos = from; pos < from + length; pos += WRITE_AHEAD_BYTES) {
            ByteBuffer zeros = ZEROS.duplicate();
            zeros.limit((int) Math.min(WRITE_AHEAD_BYTES, from + length - pos));
            Segment.writeFully(ch, zeros, pos);
        }
    }

    /**
     * Cuts the zeros written ahead off a segment the writer leaves (sealed or closed). Best effort:
     * zeros left by a failed cut (or a crash) are cut off by the next start.
     */
    private void trimWriteAhead() {
        if (allocated > writePos && active.writer != null) {
            try {
                active.writer.truncate(writePos);
                allocated = writePos;
            } catch (IOException | RuntimeException e) {
                LOG.warn("queue segment {}: could not cut the zeros written ahead off; the next start does error=\"{}\"",
                    active.log, e.toString());
            }
        }
    }

    private void fail(Object[] outcomes, int from, QueueStoreException e) {
        queue.appendsFailed(outcomes.length - from);
        Arrays.fill(outcomes, from, outcomes.length, e);
    }

    private void ensureCapacity(int bytes) {
        if (buffer.capacity() < bytes) {
            buffer = ByteBuffer.allocate(Math.max(bytes, buffer.capacity() * 2));
        }
    }
}

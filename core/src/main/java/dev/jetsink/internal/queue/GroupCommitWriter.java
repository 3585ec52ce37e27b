package dev.jetsink.internal.queue;

import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.time.LogThrottle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
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
 * fails the whole batch and rolls to a new segment (SPEC §4.2).
 */
final class GroupCommitWriter implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitWriter.class);
    /** Bound on one write so a burst of large payloads does not build a huge buffer. */
    private static final int MAX_BATCH_BYTES = 8 * 1024 * 1024;
    private static final int MAX_BATCH_RECORDS = 4096;

    /** One submitted append. {@code stop} marks the close request. */
    record Pending(String msgId, EntryAttributes attributes, long queuedAtMs, EventMetadata metadata, byte[] payload, int size,
                   CompletableFuture<QueuedEntry> future, boolean stop) {
    }

    static final Pending STOP = new Pending("-", EntryAttributes.NONE, 0, null, null, 0, null, true);

    private final SegmentedQueue queue;
    private final SegmentFiles files;
    private final QueueOptions options;
    private final LinkedBlockingQueue<Pending> pending = new LinkedBlockingQueue<>();
    /** Guards the segment files and every field below. */
    private final ReentrantLock io = new ReentrantLock();
    private Segment active;
    private long writePos;
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
        if (!p.stop() && !Thread.currentThread().isInterrupted() && pending.isEmpty() && io.tryLock()) {
            try {
                // appends that arrived meanwhile ride along with this fsync
                List<Pending> batch = new ArrayList<>();
                batch.add(p);
                drainInto(batch);
                if (batch.removeIf(Pending::stop)) {
                    // cannot happen while close() waits on the submit gate; hand it back to the writer thread
                    pending.add(STOP);
                }
                write(batch);
            } finally {
                io.unlock();
            }
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
            io.lock();
            try {
                // take what queued up while a producer held the lock, so one fsync covers it all
                drainInto(batch);
                stopping = batch.removeIf(Pending::stop);
                write(batch);
            } finally {
                io.unlock();
            }
            batch.clear();
        }
        io.lock();
        try {
            if (active != null) {
                SegmentFiles.closeQuietly(active.writer);
                active.writer = null;
            }
        } finally {
            io.unlock();
        }
    }

    /** One error line per 10 s for repeated write failures (a full disk fails every batch). */
    private final LogThrottle failures;

    private void write(List<Pending> batch) {
        int i = 0;
        while (i < batch.size()) {
            try {
                if (active == null || rollNeeded(batch.get(i).size)) {
                    roll();
                }
            } catch (IOException | RuntimeException e) {
                fail(batch, i, new QueueStoreException("could not start a new queue segment: " + e.getMessage(), e));
                return;
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
                    LOG.warn("could not cut the failed write off {}; the next start cuts it off as a torn tail error=\"{}\"",
                        failed.log, t.toString());
                }
                SegmentFiles.closeQuietly(failed.writer);
                failed.writer = null;
                queue.writeFailed(failed, firstSeq, nextSeq);
                fail(batch, i, new QueueStoreException("queue write or fsync failed: " + e.getMessage(), e));
                return;
            }
            writePos += batchBytes;
            queue.committed(active, batch.subList(i, end), firstSeq, start);
            i = end;
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
        queue.opened(s);
        active = s;
    }

    private void fail(List<Pending> batch, int from, QueueStoreException e) {
        List<Pending> failed = batch.subList(from, batch.size());
        queue.appendsFailed(failed.size());
        for (Pending p : failed) {
            p.future().completeExceptionally(e);
        }
    }

    private void ensureCapacity(int bytes) {
        if (buffer.capacity() < bytes) {
            buffer = ByteBuffer.allocate(Math.max(bytes, buffer.capacity() * 2));
        }
    }
}

package dev.jetsink.internal.queue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Background upkeep of a queue, run every 50 ms and on close: forces dirty resolution sidecars,
 * deletes sealed segments whose entries are all resolved, and compacts sparse old segments.
 */
final class SegmentMaintenance {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentMaintenance.class);

    private static final long COMPACT_RETRY_MS = 60_000;

    private final SegmentedQueue queue;
    private final SegmentFiles files;
    private final QueueOptions options;
    /** Upkeep runs every 50 ms: an unwritable directory must not write an ERROR line each time. */
    private final dev.jetsink.internal.time.LogThrottle sidecarFailures;
    private final dev.jetsink.internal.time.LogThrottle markFailures;
    private final dev.jetsink.internal.time.LogThrottle hookFailures;

    SegmentMaintenance(SegmentedQueue queue, SegmentFiles files, QueueOptions options) {
        this.queue = queue;
        this.files = files;
        this.options = options;
        this.sidecarFailures = new dev.jetsink.internal.time.LogThrottle(options.clock(), dev.jetsink.internal.time.LogThrottle.TEN_SECONDS);
        this.markFailures = new dev.jetsink.internal.time.LogThrottle(options.clock(), dev.jetsink.internal.time.LogThrottle.TEN_SECONDS);
        this.hookFailures = new dev.jetsink.internal.time.LogThrottle(options.clock(), dev.jetsink.internal.time.LogThrottle.TEN_SECONDS);
    }

    synchronized void run() {
        try {
            flushResolutions();
            deleteResolvedSegments();
            compactSparseSegments();
        } catch (RuntimeException e) {
            LOG.error("queue upkeep failed in {}; will retry", queue.directory(), e);
        }
    }

    /** Runs before the sidecars are written ({@link QueueStore#beforeResolutionsForced}). */
    private volatile Runnable beforeForce = () -> { };

    void beforeResolutionsForced(Runnable hook) {
        beforeForce = hook;
    }

    /**
     * Forces the sidecar of every segment with new resolution bits: takes every segment's bits
     * first, then runs the hook, then writes them, so what the hook forced covers each of them.
     */
    void flushResolutions() {
        List<Segment> dirty = new ArrayList<>();
        List<byte[]> taken = new ArrayList<>();
        for (Segment s : queue.segmentsSnapshot()) {
            synchronized (queue) {
                if (!s.ackDirty) {
                    continue;
                }
                s.ackDirty = false;
                dirty.add(s);
                taken.add(s.ackBytes());
            }
        }
        if (dirty.isEmpty()) {
            return;
        }
        if (!runBeforeForce()) {
            synchronized (queue) {
                dirty.forEach(s -> s.ackDirty = true);
            }
            return;
        }
        for (int i = 0; i < dirty.size(); i++) {
            Segment s = dirty.get(i);
            byte[] bits = taken.get(i);
            try (FileChannel ch = options.channels().open(s.ack,
                EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE))) {
                Segment.writeFully(ch, ByteBuffer.wrap(bits), 0);
                if (ch.size() > bits.length) {
                    ch.truncate(bits.length); // a damaged, longer sidecar would fail its check again
                }
                ch.force(false);
            } catch (IOException e) {
                synchronized (queue) {
                    s.ackDirty = true;
                }
                queue.counters().upkeepWriteFailed();
                long held = sidecarFailures.admit();
                if (held >= 0) {
                    LOG.error("cannot write resolution sidecar {}; entries may be re-delivered after a crash "
                        + "(same failure {} more time(s) in the last {} s)", s.ack, held,
                        dev.jetsink.internal.time.LogThrottle.TEN_SECONDS.toSeconds(), e);
                }
            }
        }
    }

    /**
     * The hook, before resolutions become durable by a sidecar, a deletion or a compaction; false
     * when it failed: the resolutions then stay as they are (in memory) and upkeep tries again,
     * since what the hook makes durable must be on disk before them (an ordered target's numbers).
     */
    private boolean runBeforeForce() {
        try {
            beforeForce.run();
            return true;
        } catch (RuntimeException e) {
            queue.counters().upkeepWriteFailed();
            long held = hookFailures.admit();
            if (held >= 0) {
                LOG.error("queue {}: the step before forcing resolutions failed; they are not forced until it succeeds, so"
                    + " a crash meanwhile re-delivers those entries (same failure {} more time(s) in the last {} s)",
                    queue.directory(), held, dev.jetsink.internal.time.LogThrottle.TEN_SECONDS.toSeconds(), e);
            }
            return false;
        }
    }

    /** Deletes sealed segments with no live entry left (the writer's segment is never sealed). */
    synchronized void deleteResolvedSegments() {
        List<Segment> doomed = new ArrayList<>();
        long newest = 0;
        synchronized (queue) {
            List<Segment> all = queue.segmentsSnapshot();
            if (all.isEmpty()) {
                return;
            }
            newest = all.get(all.size() - 1).firstSeq;
            for (Segment s : all) {
                if (s.sealed && s.live == 0 && !s.busy && s.writer == null) {
                    s.busy = true;
                    queue.forget(s);
                    doomed.add(s);
                }
            }
        }
        if (!doomed.isEmpty() && !runBeforeForce()) {
            synchronized (queue) {
                for (Segment s : doomed) {
                    s.busy = false;
                    queue.add(s);
                }
            }
            return;
        }
        if (!doomed.isEmpty() && doomed.get(doomed.size() - 1).firstSeq == newest) {
            // deleting the newest segment (after a failed write): its sequences must stay used
            try {
                files.writeHighWaterMark(newest + Segment.MAX_RECORDS);
            } catch (IOException e) {
                queue.counters().upkeepWriteFailed();
                long held = markFailures.admit();
                if (held >= 0) {
                    LOG.error("cannot write the queue high-water mark in {}; keeping the segments "
                        + "(same failure {} more time(s) in the last {} s)", files.dir, held,
                        dev.jetsink.internal.time.LogThrottle.TEN_SECONDS.toSeconds(), e);
                }
                synchronized (queue) {
                    for (Segment s : doomed) {
                        s.busy = false;
                        queue.add(s);
                    }
                }
                return;
            }
        }
        for (Segment s : doomed) {
            try {
                if (s.damaged) {
                    Path kept = files.quarantine(s);
                    LOG.error("queue segment {} held damaged records; its readable entries are resolved and it is "
                        + "kept for inspection at {}, not deleted", s.log, kept);
                } else {
                    files.delete(s);
                }
            } catch (IOException e) {
                LOG.error("cannot delete resolved queue segment {}; it is retried on the next open", s.log, e);
            }
        }
    }

    private void compactSparseSegments() {
        long now = options.clock().millis();
        for (Segment s : queue.segmentsSnapshot()) {
            boolean due;
            synchronized (queue) {
                due = s.sealed && !s.busy && !s.damaged && s.live > 0 && (long) s.live * 100 < s.records
                    && now - s.lastQueuedAtMs >= options.compactAfter().toMillis() && now >= s.compactNotBeforeMs;
                if (due) {
                    s.busy = true;
                }
            }
            if (due) {
                try {
                    compact(s);
                } catch (IOException | RuntimeException e) {
                    LOG.error("cannot compact queue segment {}; it stays as it is, retried in a minute", s.log, e);
                    synchronized (queue) {
                        s.compactNotBeforeMs = now + COMPACT_RETRY_MS;
                    }
                } finally {
                    synchronized (queue) {
                        s.busy = false;
                    }
                }
            }
        }
    }

    /**
     * Rewrites {@code s} with only its live records, keeping their sequence numbers, msg ids and
     * queued-at, so the sidecar (indexed by sequence) stays valid. The copy is forced before it
     * atomically replaces the segment: a crash leaves the old or the new file, never a partial one.
     */
    void compact(Segment s) throws IOException {
        List<long[]> live = queue.liveIn(s);
        if (!runBeforeForce()) { // the records left out are resolutions made durable
            throw new IOException("the step before forcing resolutions failed");
        }
        Path tmp = s.log.resolveSibling(s.log.getFileName() + SegmentFiles.TMP_SUFFIX);
        int[] newOffsets = new int[live.size()];
        long pos = RecordCodec.SEGMENT_HEADER_BYTES;
        try (FileChannel out = options.channels().open(tmp,
            EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))) {
            Segment.writeFully(out, RecordCodec.segmentHeader(s.firstSeq), 0);
            for (int i = 0; i < live.size(); i++) {
                long[] e = live.get(i);
                ByteBuffer rec = ByteBuffer.allocate((int) e[2]);
                Segment.readFully(queue.openReader(s), rec, e[1]);
                if (RecordCodec.validBodyLength(rec, 0) != rec.capacity() - RecordCodec.RECORD_PREFIX_BYTES) {
                    throw new IOException("record " + e[0] + " fails its checksum; not compacting");
                }
                rec.flip();
                newOffsets[i] = (int) pos;
                Segment.writeFully(out, rec, pos);
                pos += e[2];
            }
            out.force(true);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        FileChannel old;
        // the swap of file, reader and offsets is one step under the queue's lock: a reader that
        // reopens the segment (after an interrupt closed it) never pairs the new file with old offsets
        synchronized (queue) {
            try {
                Files.move(tmp, s.log, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(tmp);
                throw e;
            }
            FileChannel fresh = FileChannel.open(s.log, StandardOpenOption.READ);
            for (int i = 0; i < live.size(); i++) {
                queue.moved(live.get(i)[0], newOffsets[i]);
            }
            old = s.reader;
            s.reader = fresh;
            s.records = live.size();
            s.sizeBytes = pos;
        }
        SegmentFiles.closeQuietly(old);
        SegmentFiles.fsyncDirectory(files.segments);
        LOG.info("compacted queue segment {} to {} live records ({} bytes)", s.log, live.size(), pos);
    }
}

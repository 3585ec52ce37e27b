package dev.jetsink.internal.queue;

import dev.jetsink.QueueStoreException;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a queue directory (DESIGN.md "Queue"): removes temporary files, scans every segment in
 * order, verifies each record's CRC, truncates the torn tail of the newest segment, and hands the
 * live entries to the queue's index. Returns the next sequence number, which is also persisted as
 * the high-water mark before anything can be deleted.
 */
final class QueueRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(QueueRecovery.class);

    private final SegmentFiles files;
    private final SegmentedQueue queue;
    /** Sequences a torn tail may have used: never hand them out again (sequence numbers only grow). */
    private long tornFloor;

    QueueRecovery(SegmentFiles files, SegmentedQueue queue) {
        this.files = files;
        this.queue = queue;
    }

    long recover() throws IOException {
        Files.createDirectories(files.segments);
        refuseNewerFormat();
        Files.deleteIfExists(files.dir.resolve("HWM" + SegmentFiles.TMP_SUFFIX));
        List<Long> firstSeqs = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(files.segments)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                if (name.endsWith(SegmentFiles.TMP_SUFFIX)) {
                    Files.deleteIfExists(p);
                } else if (SegmentFiles.LOG_NAME.matcher(name).matches() && SegmentFiles.firstSeqOf(name).isPresent()) {
                    firstSeqs.add(SegmentFiles.firstSeqOf(name).get());
                } else if (!(name.endsWith(".ack") && SegmentFiles.firstSeqOf(name).isPresent())) {
                    LOG.warn("ignoring foreign file {} in queue directory", p);
                }
            }
        }
        firstSeqs.sort(null);
        long maxSeq = 0;
        long lastSeq = 0;
        for (int k = 0; k < firstSeqs.size(); k++) {
            long first = firstSeqs.get(k);
            boolean newest = k == firstSeqs.size() - 1;
            long[] last = {lastSeq};
            Segment s = recoverSegment(first, newest ? Long.MAX_VALUE : firstSeqs.get(k + 1), last);
            lastSeq = last[0];
            maxSeq = Math.max(maxSeq, lastSeq);
            queue.add(s);
        }
        deleteOrphanSidecars(firstSeqs);
        long next = Math.max(1, maxSeq + 1);
        if (!firstSeqs.isEmpty()) {
            // a segment may have been created and never written: never reuse its name
            next = Math.max(next, firstSeqs.get(firstSeqs.size() - 1) + 1);
        }
        next = Math.max(next, tornFloor);
        next = Math.max(next, files.readHighWaterMark().orElse(1L));
        files.writeHighWaterMark(next);
        return next;
    }

    /**
     * Recovers one segment. {@code nextFirst} is the next segment's first sequence (every sequence
     * here lies below it) or {@link Long#MAX_VALUE} for the newest segment, the only one a crash can
     * leave with a torn last write.
     */
    private Segment recoverSegment(long first, long nextFirst, long[] lastSeq) throws IOException {
        boolean newest = nextFirst == Long.MAX_VALUE;
        SegmentFiles.Sidecar sidecar = SegmentFiles.readAck(files.ack(first));
        BitSet resolved = sidecar.resolved();
        Segment s = new Segment(first, files.log(first), files.ack(first), resolved);
        if (sidecar.problem().isPresent()) {
            LOG.error("queue sidecar {} {}: taken as nothing resolved, so this segment's entries are delivered again "
                + "(the stream drops those it already holds within its duplicate window)", s.ack, sidecar.problem().get());
            queue.counters().sidecarRebuilt();
            s.ackDirty = true;
        }
        long[] outOfPlace = {0};
        SegmentScanner.Result r = SegmentScanner.scan(s.log, (buf, offset, total) -> {
            long seq = RecordCodec.seqAt(buf, offset);
            if (!s.contains(seq) || seq >= nextFirst || seq <= lastSeq[0]) {
                outOfPlace[0]++;
                return;
            }
            lastSeq[0] = seq;
            s.records++;
            long queuedAt = RecordCodec.queuedAtAt(buf, offset);
            s.lastQueuedAtMs = Math.max(s.lastQueuedAtMs, queuedAt);
            if (!resolved.get(s.bit(seq))) {
                queue.recoveredEntry(seq, offset, total, queuedAt);
                s.live++;
            }
        });
        if (!r.headerValid()) {
            if (r.fileSize() >= 6 && isSegmentMagic(s.log) && r.fileSize() >= RecordCodec.SEGMENT_HEADER_BYTES) {
                throw new QueueStoreException("segment " + s.log + " has an unsupported format version; "
                    + "this jetsink reads versions " + RecordCodec.OLDEST_READABLE_VERSION + " to " + RecordCodec.FORMAT_VERSION);
            }
            if (r.fileSize() >= RecordCodec.SEGMENT_HEADER_BYTES) {
                LOG.error("queue segment {} has a damaged header; reading its records anyway", s.log);
                queue.counters().corrupt(1);
                s.damaged = true;
            }
        }
        long damaged = r.corruptRegions() + outOfPlace[0];
        if (damaged > 0) {
            LOG.error("queue segment {}: skipped {} damaged record(s); {} valid records kept", s.log, damaged, r.records());
            queue.counters().corrupt(damaged);
            s.damaged = true;
        }
        s.sizeBytes = r.fileSize();
        if (r.hasTornTail()) {
            tornFloor = Math.max(tornFloor, first + Segment.MAX_RECORDS);
            if (r.tailZeros()) {
                // zeros the writer wrote ahead of its records and a crash kept it from cutting off
                // (or space a crash left unwritten): nothing there was acknowledged, nothing is torn
                LOG.info("queue segment {}: cutting {} bytes of zeros after the last record", s.log,
                    r.fileSize() - r.validEnd());
                try (FileChannel ch = FileChannel.open(s.log, StandardOpenOption.WRITE)) {
                    ch.truncate(r.validEnd());
                    ch.force(true);
                }
                s.sizeBytes = r.validEnd();
            } else if (newest || r.tailUnfinished()) {
                // a write that stopped short (crash, full disk) was never acknowledged: nothing is
                // lost by cutting it off, and it is not damage
                LOG.warn("queue segment {}: truncating {} bytes of torn tail after the last valid record",
                    s.log, r.fileSize() - r.validEnd());
                try (FileChannel ch = FileChannel.open(s.log, StandardOpenOption.WRITE)) {
                    ch.truncate(r.validEnd());
                    ch.force(true);
                }
                s.sizeBytes = r.validEnd();
                queue.counters().tornTail();
            } else {
                // every write to an older segment was fsynced before the writer moved on, so this is
                // damage (or the remains of a failed write), not a torn write: report it, keep the bytes
                LOG.error("queue segment {}: {} bytes after the last valid record are damaged; kept, not truncated",
                    s.log, r.fileSize() - r.validEnd());
                s.damaged = true;
                queue.counters().corrupt(1);
            }
        }
        s.sealed = true;
        s.reader = FileChannel.open(s.log, StandardOpenOption.READ);
        return s;
    }

    /**
     * A queue written by a newer jetsink (a segment header with a higher format version) is refused
     * before anything in the directory is changed: no temporary file removed, no tail truncated,
     * no sidecar rewritten. Running the older release against it would take its records for damage.
     */
    private void refuseNewerFormat() throws IOException {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(files.segments, "*.log")) {
            for (Path p : ds) {
                if (!SegmentFiles.LOG_NAME.matcher(p.getFileName().toString()).matches()) {
                    continue;
                }
                java.nio.ByteBuffer header = java.nio.ByteBuffer.allocate(RecordCodec.SEGMENT_HEADER_BYTES);
                try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
                    while (header.hasRemaining() && ch.read(header) > 0) {
                        // a short file is a torn create; recovery handles it
                    }
                }
                if (header.position() >= 6 && header.getInt(0) == RecordCodec.SEGMENT_MAGIC
                    && header.getShort(4) > RecordCodec.FORMAT_VERSION) {
                    throw new QueueStoreException("queue segment " + p + " has format version " + header.getShort(4)
                        + ", written by a newer jetsink; this jetsink reads versions " + RecordCodec.OLDEST_READABLE_VERSION
                        + " to " + RecordCodec.FORMAT_VERSION + ". Nothing was changed: run the newer release on this "
                        + "queue directory");
                }
            }
        }
    }

    private static boolean isSegmentMagic(Path log) throws IOException {
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.READ)) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4);
            Segment.readFully(ch, b, 0);
            return b.getInt(0) == RecordCodec.SEGMENT_MAGIC;
        }
    }

    /** A sidecar left by a crash between deleting a log and its sidecar. */
    private void deleteOrphanSidecars(List<Long> firstSeqs) throws IOException {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(files.segments, "*.ack")) {
            for (Path p : ds) {
                Optional<Long> first = SegmentFiles.firstSeqOf(p.getFileName().toString());
                if (first.isPresent() && !firstSeqs.contains(first.get())) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}

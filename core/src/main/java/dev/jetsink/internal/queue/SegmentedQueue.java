package dev.jetsink.internal.queue;

import dev.jetsink.QueueFullException;
import dev.jetsink.QueueStoreException;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.event.MsgIds;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The durable local queue of one target (DESIGN.md "Queue"): an append-only, segmented, checksummed
 * log with group commit, a resolution bitmap per segment and an in-memory index of live entries.
 *
 * <p>The directory's layout is documented in {@link SegmentFiles}, the segment and record format in
 * {@link RecordCodec}, the resolution sidecar's in {@link Segment}.
 *
 * <h2>Guarantees</h2>
 * <p>An append's future completes after the {@code force} covering its record. Resolution bits are
 * forced within 100 ms and on close, so a crash can re-deliver (same msg id) but never lose. A
 * damaged record is counted, logged and skipped; a torn tail is truncated on open. Compaction
 * rewrites a sparse old segment with only its live records (same sequence numbers, msg ids,
 * queued-at) into a temporary file that atomically replaces it: a crash leaves either file, both
 * complete.
 */
public final class SegmentedQueue implements QueueStore {

    private final Path dir;
    private final QueueOptions options;
    private final SegmentFiles files;
    private final QueueLock lock;
    private final MsgIds.Minter minter;
    private final LiveIndex index = new LiveIndex();
    private final TreeMap<Long, Segment> segments = new TreeMap<>();
    private final QueueCounters counters;
    /** Live records found damaged after recovery (each is counted once). */
    private final Set<Long> damaged = new HashSet<>();
    private final GroupCommitWriter writer;
    private final RecordReader reader;
    private final QueueWorkers workers;
    private final ReentrantReadWriteLock submitGate = new ReentrantReadWriteLock();
    private final QueueRoom room;
    private boolean closed;

    private SegmentedQueue(Path dir, QueueOptions options, QueueLock lock) throws IOException {
        this.dir = dir;
        this.options = options;
        this.files = new SegmentFiles(dir, options.channels());
        this.lock = lock;
        this.minter = new MsgIds.Minter(options.clock());
        this.counters = new QueueCounters(options.clock());
        this.room = new QueueRoom(dir, options.limit(), index);
        this.reader = new RecordReader(this, options.heldBytes());
        long nextSeq = new QueueRecovery(files, this).recover();
        this.writer = new GroupCommitWriter(this, files, options, nextSeq);
        SegmentMaintenance upkeep = new SegmentMaintenance(this, files, options);
        upkeep.deleteResolvedSegments();
        this.workers = new QueueWorkers(dir, writer, upkeep);
    }

    /**
     * Opens (creating when absent) the queue in {@code dir}, the target's resolved directory
     * {@code <queue_dir>/<kind>-nats-<id>}, and recovers its live entries.
     *
     * @throws dev.jetsink.QueueLockedException when another process holds the queue
     * @throws QueueStoreException  when the directory cannot be read or written
     */
    public static SegmentedQueue open(Path dir, QueueOptions options) {
        QueueLock lock = QueueLock.acquire(dir);
        try {
            return new SegmentedQueue(dir, options, lock);
        } catch (IOException | RuntimeException e) {
            lock.release();
            if (e instanceof QueueStoreException q) {
                throw q;
            }
            throw new QueueStoreException("cannot open queue " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The queue directory. */
    public Path directory() {
        return dir;
    }

    @Override
    public CompletableFuture<QueuedEntry> append(EventMetadata metadata, byte[] payload, Optional<String> msgId,
                                                 EntryAttributes attributes) {
        Objects.requireNonNull(attributes, "attributes");
        RecordCodec.checkFits(metadata, payload, attributes);
        return submit(metadata, payload, msgId, attributes, false);
    }

    @Override
    public synchronized void checkRoom(int n) {
        room.check(n, closed);
    }

    @Override
    public synchronized Reservation reserve(int n) {
        room.reserve(n, closed);
        return new HeldReservation(this, n);
    }

    /**
     * Appends one entry, on a slot of a {@link HeldReservation} when {@code onReservedSlot}, else
     * taking one now (refused at {@code queue_limit}). Failures come back in the future.
     */
    CompletableFuture<QueuedEntry> submit(EventMetadata metadata, byte[] payload, Optional<String> msgId,
                                          EntryAttributes attributes, boolean onReservedSlot) {
        CompletableFuture<QueuedEntry> future = new CompletableFuture<>();
        String id = msgId.orElseGet(minter::next);
        GroupCommitWriter.Pending p = new GroupCommitWriter.Pending(id, attributes, options.clock().millis(), metadata,
            payload, RecordCodec.recordSize(id, metadata, payload, attributes), future, false);
        // the read lock keeps close() from queueing the writer's stop between our check and submit;
        // the monitor is not held while submitting because the producer may write and fsync itself
        submitGate.readLock().lock();
        try {
            synchronized (this) {
                try {
                    room.startAppend(onReservedSlot, closed);
                } catch (QueueFullException | QueueStoreException e) {
                    return CompletableFuture.failedFuture(e);
                }
            }
            writer.submit(p);
        } finally {
            submitGate.readLock().unlock();
        }
        return future;
    }

    @Override
    public List<QueuedEntry> live(long afterSeq, int max) {
        return reader.live(afterSeq, max);
    }

    @Override
    public byte[] read(QueuedEntry entry) {
        return reader.read(entry);
    }

    /** Reads from segment files so far, each of one run of records lying end to end. */
    long diskReads() {
        return reader.diskReads();
    }

    /** The segment's reader, reopened when an interrupted thread closed it (which closes it for every user). */
    synchronized FileChannel openReader(Segment s) throws IOException {
        FileChannel ch = s.reader;
        if (!ch.isOpen() && !closed && segments.get(s.firstSeq) == s) {
            ch = FileChannel.open(s.log, StandardOpenOption.READ);
            s.reader = ch;
        }
        return ch;
    }

    /** Whether the queue is closed (read outside the monitor by readers). */
    synchronized boolean closedNow() {
        return closed;
    }

    /**
     * Where the records {@code seqs[from..]} lie, while they are live: the longest run of them that
     * lies end to end in one segment and takes at most {@code maxBytes} (the first always counts,
     * whatever its size), so one read fetches them all. Empty when {@code seqs[from]} is not live.
     */
    synchronized List<RecordReader.Location> locateRun(List<Long> seqs, int from, long maxBytes) throws IOException {
        List<RecordReader.Location> run = new ArrayList<>();
        Segment first = null;
        FileChannel channel = null;
        long end = -1;
        long bytes = 0;
        for (int k = from; k < seqs.size(); k++) {
            long seq = seqs.get(k);
            int i = index.find(seq);
            if (i < 0) {
                break;
            }
            Segment s = segments.floorEntry(seq).getValue();
            int offset = index.offset(i);
            int length = index.length(i);
            if (first == null) {
                first = s;
                channel = openReader(s);
            } else if (s != first || offset != end || bytes + length > maxBytes) {
                break;
            }
            run.add(new RecordReader.Location(seq, channel, offset, length));
            end = (long) offset + length;
            bytes += length;
        }
        return run;
    }

    /** Up to {@code max} live sequence numbers after {@code afterSeq}, oldest first. */
    synchronized List<Long> liveAfter(long afterSeq, int max) {
        return index.liveAfter(afterSeq, max);
    }

    /**
     * Marks a record found damaged after recovery (its segment is then kept for inspection when
     * resolved); true the first time for that record.
     */
    synchronized boolean markDamaged(long seq) {
        var holder = segments.floorEntry(seq);
        if (holder != null && holder.getValue().contains(seq)) {
            holder.getValue().damaged = true;
        }
        return damaged.add(seq);
    }

    @Override
    public boolean resolve(long seq) {
        synchronized (this) {
            if (!index.remove(seq)) {
                return false;
            }
            reader.forget(seq);
            Segment s = segments.floorEntry(seq).getValue();
            s.resolved.set(s.bit(seq));
            s.live--;
            s.ackDirty = true;
            return true;
        }
    }

    @Override
    public synchronized long liveCount() {
        return index.live();
    }

    @Override
    public synchronized long bytes() {
        long total = 0;
        for (Segment s : segments.values()) {
            total += s.sizeBytes;
        }
        return total;
    }

    @Override
    public synchronized Optional<Instant> oldestQueuedAt() {
        int i = index.oldest();
        return i < 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(index.queuedAt(i)));
    }

    @Override
    public long sidecarRebuilds() {
        return counters.sidecarRebuilds();
    }

    @Override
    public long lastUpkeepWriteFailureMillis() {
        return counters.lastUpkeepWriteFailureMillis();
    }

    @Override
    public long tornTails() {
        return counters.tornTails();
    }

    @Override
    public long corruptRecords() {
        return counters.corruptRecords();
    }

    @Override
    public void beforeResolutionsForced(Runnable hook) {
        workers.beforeResolutionsForced(hook);
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        // an interrupt would cut the waits short (releasing the lock while the writer still runs) and
        // close the channels of the final sidecar flush: set it aside and restore it afterwards
        boolean interrupted = Thread.interrupted();
        try {
            submitGate.writeLock().lock();
            try {
                writer.submit(GroupCommitWriter.STOP);
            } finally {
                submitGate.writeLock().unlock();
            }
            interrupted |= workers.awaitStopped();
            synchronized (this) {
                for (Segment s : segments.values()) {
                    SegmentFiles.closeQuietly(s.reader);
                    SegmentFiles.closeQuietly(s.writer);
                }
            }
            lock.release();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Gives back reserved slots a {@link Reservation} did not use. */
    synchronized void release(int unused) {
        room.release(unused);
    }

    // ---- called by recovery, the writer and maintenance (package-private seams) ----

    QueueCounters counters() {
        return counters;
    }

    synchronized void recoveredEntry(long seq, int offset, int length, long queuedAtMs) {
        index.add(seq, offset, length, queuedAtMs);
    }

    /** Puts a segment in the table: found by recovery, started by the writer, kept after a failed delete. */
    synchronized void add(Segment s) {
        segments.put(s.firstSeq, s);
    }

    synchronized void sealed(Segment s) {
        s.sealed = true;
    }

    /**
     * Records of a batch are on disk: indexes them and puts each one's entry in
     * {@code entries[at + i]}; the writer completes their futures once it released its lock.
     */
    synchronized void committed(Segment s, List<GroupCommitWriter.Pending> batch, long firstSeq, long startOffset,
                                Object[] entries, int at) {
        long offset = startOffset;
        for (int i = 0; i < batch.size(); i++) {
            GroupCommitWriter.Pending p = batch.get(i);
            QueuedEntry entry = p.entry(firstSeq + i);
            entries[at + i] = entry;
            reader.recent().hold(entry, p.payload()); // before indexing: listed means held
            index.add(firstSeq + i, (int) offset, p.size(), p.queuedAtMs());
            offset += p.size();
        }
        s.records += batch.size();
        s.live += batch.size();
        s.sizeBytes = offset;
        s.lastQueuedAtMs = batch.get(batch.size() - 1).queuedAtMs();
        room.appendsEnded(batch.size());
    }

    synchronized void appendsFailed(int n) {
        room.appendsEnded(n);
    }

    /**
     * A write or force failed: the segment is sealed, and the failed records (which may have
     * reached the disk anyway) are marked resolved so a restart does not deliver entries whose
     * producers were told they failed. Best effort: at worst they are delivered (at-least-once).
     */
    synchronized void writeFailed(Segment s, long fromSeq, long toSeq) {
        s.sealed = true;
        for (long seq = fromSeq; seq < toSeq; seq++) {
            s.resolved.set(s.bit(seq));
        }
        s.ackDirty = true;
    }

    /** Lock-guarded state for {@link SegmentMaintenance}. */
    synchronized List<Segment> segmentsSnapshot() {
        return new ArrayList<>(segments.values());
    }

    synchronized void forget(Segment s) {
        segments.remove(s.firstSeq);
    }

    /** Live entries of {@code s} as {seq, offset, length} triples, oldest first. */
    synchronized List<long[]> liveIn(Segment s) {
        Long next = segments.higherKey(s.firstSeq);
        return index.liveBetween(s.firstSeq, next == null ? Long.MAX_VALUE : next);
    }

    synchronized void moved(long seq, int newOffset) {
        index.moveSeq(seq, newOffset);
    }
}

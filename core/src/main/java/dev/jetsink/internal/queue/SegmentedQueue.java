package dev.jetsink.internal.queue;

import dev.jetsink.QueueFullException;
import dev.jetsink.QueueStoreException;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.event.MsgIds;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable local queue of one target (DESIGN.md "Queue"): an append-only, segmented, checksummed
 * log with group commit, a resolution bitmap per segment and an in-memory index of live entries.
 *
 * <h2>Directory</h2>
 * <pre>
 * &lt;dir&gt;/LOCK                         exclusive file lock of the process that has the queue open
 * &lt;dir&gt;/HWM                          next sequence number, decimal ASCII (survives deletion of all segments)
 * &lt;dir&gt;/segments/&lt;20-digit first-seq&gt;.log   records
 * &lt;dir&gt;/segments/&lt;20-digit first-seq&gt;.ack   resolution sidecar
 * &lt;dir&gt;/damaged/                     resolved segments that held damaged bytes, kept for inspection
 * *.tmp                                temporary files, removed on open
 * </pre>
 *
 * <h2>Segment file ({@code .log}), format version 2. All integers big-endian.</h2>
 * <table>
 * <caption>Segment header</caption>
 * <tr><th>Offset</th><th>Size</th><th>Field</th></tr>
 * <tr><td>0</td><td>4</td><td>magic {@code 0x4A534B53} ("JSKS")</td></tr>
 * <tr><td>4</td><td>2</td><td>format version of the jetsink that created the file: {@code 2} (or {@code 1})</td></tr>
 * <tr><td>6</td><td>2</td><td>header length, {@code 16}</td></tr>
 * <tr><td>8</td><td>8</td><td>first sequence number (equals the file name)</td></tr>
 * </table>
 * <table>
 * <caption>Record, version 2 (repeated from offset 16; offsets relative to the record)</caption>
 * <tr><th>Offset</th><th>Size</th><th>Field</th></tr>
 * <tr><td>0</td><td>4</td><td>magic {@code 0x4A534B32} ("JSK2"), lets recovery find the next record after damage</td></tr>
 * <tr><td>4</td><td>4</td><td>body length L (bytes from offset 12 to the end of the record)</td></tr>
 * <tr><td>8</td><td>4</td><td>CRC32C (Castagnoli) of the body</td></tr>
 * <tr><td>12</td><td>8</td><td>sequence number</td></tr>
 * <tr><td>20</td><td>8</td><td>queued-at, Unix epoch milliseconds</td></tr>
 * <tr><td>28</td><td>1</td><td>kind: 0 notify, 1 audit</td></tr>
 * <tr><td>29</td><td>1 + n</td><td>{@code Nats-Msg-Id}: length n (1 to 128), printable ASCII without spaces</td></tr>
 * <tr><td></td><td>2 + n</td><td>bucket: unsigned length, UTF-8 bytes</td></tr>
 * <tr><td></td><td>2 + n</td><td>object key, same encoding</td></tr>
 * <tr><td></td><td>2 + n</td><td>event name, same encoding</td></tr>
 * <tr><td></td><td>2 + n</td><td>content type, same encoding</td></tr>
 * <tr><td></td><td>2 + n</td><td>attributes: unsigned length, then entries of tag (1), length (2), bytes:
 *     1 replay count (4 bytes), 2 subject, 3 traceparent, 4 tracestate (UTF-8); unknown tags are skipped</td></tr>
 * <tr><td></td><td>4 + n</td><td>payload: length, bytes (the exact bytes published)</td></tr>
 * </table>
 * <p>While the writer appends to a segment, up to 256 KiB of zeros follow its last record (written
 * ahead so a force need not grow the file); they are cut when the writer leaves the segment, and
 * zeros a crash left after the last record are cut at open. A zero magic starts no record.
 * <p>A record of version 1 (magic {@code 0x4A534B52}, "JSKR") has the same prefix, sequence and
 * queued-at, then the msg id as a 16-byte UUID (most then least significant 64 bits), the kind,
 * the four strings and the payload, without attributes. Both are read; only version 2 is written,
 * and never into a segment created by version 1 code (the writer always starts a new segment
 * when it opens a queue). A segment whose header has a version above 2 makes {@link #open}
 * refuse the whole directory before changing anything.
 * <p>Sequence numbers within a segment lie in {@code [first, first + 65536)} and grow with the
 * offset. A segment rolls at 64 MiB or 65 536 sequence numbers.
 *
 * <h2>Resolution sidecar ({@code .ack})</h2>
 * <p>8196 bytes: 8192 bytes with one bit per sequence number — bit {@code seq - first} is byte
 * {@code (seq - first) / 8}, bit {@code (seq - first) % 8} (least significant first) — then the
 * CRC32C of those 8192 bytes. A set bit means the entry was resolved (acknowledged or moved to the
 * failed store). A missing sidecar means nothing is resolved; so does one that fails its checksum
 * or has another size (logged, counted in {@link #sidecarRebuilds()}): its entries are delivered
 * again with their msg ids rather than hidden. A sidecar of exactly 8192 bytes was written by
 * version 1 code, which had no checksum, and is taken as it is.
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
    private static final Logger LOG = LoggerFactory.getLogger(SegmentedQueue.class);
    private static final long FLUSH_INTERVAL_MS = 50;

    private final Path dir;
    private final QueueOptions options;
    private final SegmentFiles files;
    private final QueueLock lock;
    private final MsgIds.Minter minter;
    private final LiveIndex index = new LiveIndex();
    private final TreeMap<Long, Segment> segments = new TreeMap<>();
    private final AtomicLong corrupt = new AtomicLong();
    private final AtomicLong sidecarRebuilds = new AtomicLong();
    private final AtomicLong tornTails = new AtomicLong();
    private volatile long lastUpkeepWriteFailureMs;
    /** Live records found damaged after recovery (each is counted once). */
    private final Set<Long> damaged = new HashSet<>();
    private final GroupCommitWriter writer;
    private final Thread writerThread;
    private final ScheduledExecutorService maintenance;
    private final SegmentMaintenance upkeep;
    private final ReentrantReadWriteLock submitGate = new ReentrantReadWriteLock();
    private long reserved;
    private long inflight;
    private boolean closed;

    private SegmentedQueue(Path dir, QueueOptions options, QueueLock lock) throws IOException {
        this.dir = dir;
        this.options = options;
        this.files = new SegmentFiles(dir, options.channels());
        this.lock = lock;
        this.minter = new MsgIds.Minter(options.clock());
        long nextSeq = new QueueRecovery(files, this).recover();
        this.writer = new GroupCommitWriter(this, files, options, nextSeq);
        this.upkeep = new SegmentMaintenance(this, files, options);
        upkeep.deleteResolvedSegments();
        this.writerThread = new Thread(writer, "jetsink-queue-writer-" + dir.getFileName());
        writerThread.setDaemon(true);
        writerThread.start();
        this.maintenance = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "jetsink-queue-upkeep-" + dir.getFileName());
            t.setDaemon(true);
            return t;
        });
        maintenance.scheduleWithFixedDelay(upkeep::run, FLUSH_INTERVAL_MS, FLUSH_INTERVAL_MS, TimeUnit.MILLISECONDS);
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
    public void checkRoom(int n) {
        synchronized (this) {
            refusal(n);
        }
    }

    @Override
    public Reservation reserve(int n) {
        synchronized (this) {
            refusal(n);
            reserved += n;
        }
        return new HeldReservation(this, n);
    }

    // Why n more entries cannot be taken now; the caller holds the monitor.
    private void refusal(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("cannot make room for " + n + " entries");
        }
        if (closed) {
            throw new QueueStoreException("queue " + dir + " is closed");
        }
        long used = index.live() + inflight + reserved;
        if (used + n > options.limit()) {
            throw new QueueFullException(dir, options.limit(), used, n);
        }
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
                if (onReservedSlot) {
                    reserved--;
                }
                try {
                    refusal(onReservedSlot ? 0 : 1);
                } catch (QueueFullException | QueueStoreException e) {
                    return CompletableFuture.failedFuture(e);
                }
                inflight++;
            }
            writer.submit(p);
        } finally {
            submitGate.readLock().unlock();
        }
        return future;
    }

    @Override
    public List<QueuedEntry> live(long afterSeq, int max) {
        List<QueuedEntry> out = new ArrayList<>();
        long after = afterSeq;
        // an entry resolved meanwhile or found damaged is left out; look further so a short page
        // still means the end of the queue
        while (out.size() < max) {
            List<Long> seqs = new ArrayList<>();
            synchronized (this) {
                for (int i = index.firstAfter(after); i < index.size() && seqs.size() < max - out.size(); i++) {
                    if (index.isLive(i)) {
                        seqs.add(index.seq(i));
                    }
                }
            }
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

    @Override
    public byte[] read(QueuedEntry entry) {
        return readRecord(entry.seq(), true)
            .map(r -> r.payload)
            .orElseThrow(() -> new NoSuchElementException("entry " + entry.seq() + " is not live in " + dir));
    }

    /** A record read back from its segment. */
    private record ReadBack(QueuedEntry entry, byte[] payload) {
    }

    private Optional<ReadBack> readRecord(long seq, boolean withPayload) {
        for (int attempt = 0; ; attempt++) {
            FileChannel ch;
            int offset;
            int length;
            try {
                synchronized (this) {
                    int i = index.find(seq);
                    if (i < 0) {
                        return Optional.empty();
                    }
                    ch = openReader(segments.floorEntry(seq).getValue());
                    offset = index.offset(i);
                    length = index.length(i);
                }
                ByteBuffer buf = ByteBuffer.allocate(length);
                Segment.readFully(ch, buf, offset);
                if (RecordCodec.validBodyLength(buf, 0) != length - RecordCodec.RECORD_PREFIX_BYTES) {
                    reportDamage(seq);
                    if (!withPayload) {
                        // listing: skip it so the entries behind it still page; it stays queued
                        return Optional.empty();
                    }
                    throw new QueueStoreException("queue record " + seq + " in " + dir + " fails its checksum");
                }
                Optional<RecordCodec.Decoded> decoded = RecordCodec.tryDecode(buf);
                if (decoded.isEmpty()) {
                    // checksum-valid but not a record this version can read (crafted, or another format)
                    reportDamage(seq);
                    if (!withPayload) {
                        return Optional.empty();
                    }
                    throw new QueueStoreException("queue record " + seq + " in " + dir + " cannot be decoded");
                }
                RecordCodec.Decoded d = decoded.get();
                byte[] payload = withPayload ? new byte[d.payloadLength()] : null;
                if (payload != null) {
                    buf.get(d.payloadOffset(), payload);
                }
                return Optional.of(new ReadBack(d.entry(), payload));
            } catch (ClosedByInterruptException e) {
                // this thread's interrupt closed the shared channel; the next read reopens it
                throw new QueueStoreException("interrupted while reading queue record " + seq + " in " + dir, e);
            } catch (ClosedChannelException e) {
                // compaction swapped the segment file under us, or another reader was interrupted; look again
                // (each attempt reopens the channel; only a stream of interrupts by other readers, or
                // a closed queue, ends this — the test with a reader interrupting itself every 7th
                // read once exhausted 4 attempts)
                if (closedNow()) {
                    throw new QueueStoreException("queue " + dir + " is closed", e);
                }
                if (attempt > 100) {
                    throw new QueueStoreException("queue record " + seq + " in " + dir
                        + " could not be read: its segment kept being closed under the read", e);
                }
            } catch (IOException | RuntimeException e) {
                if (e instanceof QueueStoreException q) {
                    throw q;
                }
                throw new QueueStoreException("cannot read queue record " + seq + " in " + dir + ": " + e, e);
            }
        }
    }

    /**
     * The segment's reader, reopened when an interrupted thread closed it: {@link FileChannel} closes
     * itself for every user when one thread using it is interrupted.
     */
    synchronized FileChannel openReader(Segment s) throws IOException {
        FileChannel ch = s.reader;
        if (!ch.isOpen() && !closed && segments.get(s.firstSeq) == s) {
            ch = FileChannel.open(s.log, StandardOpenOption.READ);
            s.reader = ch;
        }
        return ch;
    }

    /** Counts and logs a record that went bad after recovery, once per record however often it is read. */
    private void reportDamage(long seq) {
        boolean first;
        synchronized (this) {
            first = damaged.add(seq);
            var holder = segments.floorEntry(seq);
            if (holder != null && holder.getValue().contains(seq)) {
                holder.getValue().damaged = true;
            }
        }
        if (first) {
            corrupt.incrementAndGet();
            LOG.error("queue record {} in {} fails its checksum or cannot be decoded; it stays queued", seq, dir);
        }
    }

    private synchronized boolean closedNow() {
        return closed;
    }

    @Override
    public boolean resolve(long seq) {
        synchronized (this) {
            if (!index.remove(seq)) {
                return false;
            }
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
        return sidecarRebuilds.get();
    }

    @Override
    public long lastUpkeepWriteFailureMillis() {
        return lastUpkeepWriteFailureMs;
    }

    @Override
    public long tornTails() {
        return tornTails.get();
    }

    @Override
    public long corruptRecords() {
        return corrupt.get();
    }

    /** Number of segment files (for {@code queue stats} and tests). */
    public synchronized int segmentCount() {
        return segments.size();
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
            interrupted |= awaitUninterruptibly(() -> {
                writerThread.join();
                return true;
            });
            maintenance.shutdown();
            interrupted |= awaitUninterruptibly(() -> maintenance.awaitTermination(1, TimeUnit.MINUTES));
            upkeep.run();
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

    /** A wait that an interrupt does not cut short. */
    @FunctionalInterface
    private interface Wait {
        boolean await() throws InterruptedException;
    }

    /** Runs {@code w} to completion; returns whether an interrupt arrived meanwhile. */
    private static boolean awaitUninterruptibly(Wait w) {
        boolean interrupted = false;
        while (true) {
            try {
                w.await();
                return interrupted;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
    }

    /** Gives back reserved slots a {@link Reservation} did not use. */
    synchronized void release(int unused) {
        reserved -= unused;
    }

    // ---- called by recovery, the writer and maintenance (package-private seams) ----

    void countSidecarRebuilt() {
        sidecarRebuilds.incrementAndGet();
    }

    void upkeepWriteFailed() {
        lastUpkeepWriteFailureMs = options.clock().millis();
    }

    void countTornTail() {
        tornTails.incrementAndGet();
    }

    void countCorrupt(long n) {
        corrupt.addAndGet(n);
    }

    synchronized void recovered(Segment s) {
        segments.put(s.firstSeq, s);
    }

    synchronized void recoveredEntry(long seq, int offset, int length, long queuedAtMs) {
        index.add(seq, offset, length, queuedAtMs);
    }

    synchronized void opened(Segment s) {
        segments.put(s.firstSeq, s);
    }

    synchronized void sealed(Segment s) {
        s.sealed = true;
    }

    /** Records of a batch are on disk: index them before their futures complete. */
    void committed(Segment s, List<GroupCommitWriter.Pending> batch, long firstSeq, long startOffset) {
        List<QueuedEntry> entries = new ArrayList<>(batch.size());
        synchronized (this) {
            long offset = startOffset;
            long seq = firstSeq;
            for (GroupCommitWriter.Pending p : batch) {
                index.add(seq, (int) offset, p.size(), p.queuedAtMs());
                entries.add(new QueuedEntry(seq, p.msgId(), Instant.ofEpochMilli(p.queuedAtMs()),
                    p.metadata(), p.payload().length, p.attributes()));
                offset += p.size();
                seq++;
            }
            s.records += batch.size();
            s.live += batch.size();
            s.sizeBytes = offset;
            s.lastQueuedAtMs = batch.get(batch.size() - 1).queuedAtMs();
            inflight -= batch.size();
        }
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).future().complete(entries.get(i));
        }
    }

    synchronized void appendsFailed(int n) {
        inflight -= n;
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
        List<long[]> out = new ArrayList<>();
        Long next = segments.higherKey(s.firstSeq);
        long end = next == null ? Long.MAX_VALUE : next;
        for (int i = index.firstAfter(s.firstSeq - 1); i < index.size() && index.seq(i) < end; i++) {
            if (index.isLive(i)) {
                out.add(new long[] {index.seq(i), index.offset(i), index.length(i)});
            }
        }
        return out;
    }

    synchronized void moved(long seq, int newOffset) {
        int i = index.find(seq);
        if (i >= 0) {
            index.moveTo(i, newOffset);
        }
    }

    Path dir() {
        return dir;
    }
}

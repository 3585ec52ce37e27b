package dev.jetsink.internal.queue;

import dev.jetsink.QueueLockedException;
import dev.jetsink.QueueStoreException;
import dev.jetsink.internal.event.EventMetadata;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A target's queue whose directory the disk refused at start (full, unwritable, read-only). Until
 * {@link #tryOpen()} succeeds it holds no entries and refuses every append, naming the reason;
 * afterwards every call goes to the opened {@link SegmentedQueue}. One bad disk then costs its own
 * target only: the daemon starts and the targets on healthy disks serve.
 *
 * <p>A queue locked by another process or written by a newer jetsink is not deferred: those need
 * an operator, and {@link #open} throws as {@link SegmentedQueue#open} does.
 */
public final class DeferredQueue implements QueueStore {
    private final Path dir;
    private final QueueOptions options;
    private volatile QueueStore opened;
    /** Handed to the queue once it opens. */
    private Runnable beforeForce = () -> { };
    private volatile String failure;
    private boolean closed;

    private DeferredQueue(Path dir, QueueOptions options, String failure) {
        this.dir = dir;
        this.options = options;
        this.failure = failure;
    }

    /**
     * Opens the queue in {@code dir}; when the disk refuses, returns a queue that is not open yet.
     *
     * @throws QueueLockedException when another process holds the queue
     * @throws QueueStoreException when the queue cannot be read for another reason than the disk
     *     (a format this jetsink does not know)
     */
    public static QueueStore open(Path dir, QueueOptions options) {
        try {
            return SegmentedQueue.open(dir, options);
        } catch (QueueStoreException e) {
            if (!refusedByDisk(e)) {
                throw e;
            }
            return new DeferredQueue(dir, options, e.getMessage());
        }
    }

    private static boolean refusedByDisk(QueueStoreException e) {
        if (e instanceof QueueLockedException) {
            return false;
        }
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    /**
     * What makes {@code dir} unusable as a queue directory whatever the disk does later: it cannot
     * be created (a path under {@code /proc}, a file where a directory should be, no permission)
     * or is not a directory. Empty when it can be used, and also when only the disk refuses it now
     * (full, over quota, read-only, failing): that may heal, and the queue is then deferred.
     */
    public static Optional<IOException> unusable(Path dir) {
        try {
            Files.createDirectories(dir);
            return Optional.empty();
        } catch (FileSystemException e) {
            return DISK_REFUSALS.contains(String.valueOf(e.getReason())) ? Optional.empty() : Optional.of(e);
        } catch (IOException e) {
            return Optional.of(e);
        }
    }

    /** How the OS words the disk states that may heal by themselves or by an operator. */
    private static final Set<String> DISK_REFUSALS = Set.of("No space left on device", "Disk quota exceeded",
        "Read-only file system", "Input/output error");

    /** Whether {@code queue} is a deferred queue that is not open yet. */
    public static Optional<String> unavailable(QueueStore queue) {
        return queue instanceof DeferredQueue d && d.opened == null ? Optional.of(d.failure) : Optional.empty();
    }

    /**
     * Tries to open the queue again.
     *
     * @return true once the queue is open (now or before)
     */
    public synchronized boolean tryOpen() {
        if (opened != null) {
            return true;
        }
        if (closed) {
            return false;
        }
        try {
            opened = SegmentedQueue.open(dir, options);
            opened.beforeResolutionsForced(beforeForce);
            return true;
        } catch (QueueStoreException e) {
            failure = e.getMessage();
            return false;
        }
    }

    /** Why the queue is not open; empty once it is. */
    public Optional<String> failure() {
        return opened == null ? Optional.of(failure) : Optional.empty();
    }

    private QueueStore openOrThrow() {
        QueueStore q = opened;
        if (q == null) {
            throw new QueueStoreException("queue " + dir + " is not open: " + failure);
        }
        return q;
    }

    @Override
    public CompletableFuture<QueuedEntry> append(EventMetadata metadata, byte[] payload, Optional<String> msgId,
                                                 EntryAttributes attributes) {
        QueueStore q = opened;
        return q == null
            ? CompletableFuture.failedFuture(new QueueStoreException("queue " + dir + " is not open: " + failure))
            : q.append(metadata, payload, msgId, attributes);
    }

    /** {@code call} on the opened queue, or {@code closedValue} while it is not open. */
    private <T> T whenOpen(java.util.function.Function<QueueStore, T> call, T closedValue) {
        QueueStore q = opened;
        return q == null ? closedValue : call.apply(q);
    }

    @Override
    public Reservation reserve(int n) {
        return openOrThrow().reserve(n);
    }

    @Override
    public void checkRoom(int n) {
        openOrThrow().checkRoom(n);
    }

    @Override
    public List<QueuedEntry> live(long afterSeq, int max) {
        return whenOpen(q -> q.live(afterSeq, max), List.of());
    }

    @Override
    public byte[] read(QueuedEntry entry) {
        return openOrThrow().read(entry);
    }

    @Override
    public boolean resolve(long seq) {
        return whenOpen(q -> q.resolve(seq), false);
    }

    @Override
    public synchronized void beforeResolutionsForced(Runnable hook) {
        beforeForce = hook;
        if (opened != null) {
            opened.beforeResolutionsForced(hook);
        }
    }

    @Override
    public long liveCount() {
        return whenOpen(QueueStore::liveCount, 0L);
    }

    @Override
    public long bytes() {
        return whenOpen(QueueStore::bytes, 0L);
    }

    @Override
    public Optional<Instant> oldestQueuedAt() {
        return whenOpen(QueueStore::oldestQueuedAt, Optional.empty());
    }

    @Override
    public long corruptRecords() {
        return whenOpen(QueueStore::corruptRecords, 0L);
    }

    @Override
    public long sidecarRebuilds() {
        return whenOpen(QueueStore::sidecarRebuilds, 0L);
    }

    @Override
    public long lastUpkeepWriteFailureMillis() {
        return whenOpen(QueueStore::lastUpkeepWriteFailureMillis, 0L);
    }

    @Override
    public long tornTails() {
        return whenOpen(QueueStore::tornTails, 0L);
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (opened != null) {
            opened.close();
        }
    }
}

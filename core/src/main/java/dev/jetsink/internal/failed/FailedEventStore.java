package dev.jetsink.internal.failed;

import dev.jetsink.internal.config.TargetSettings;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One target's failed-events store (DESIGN.md "Failed-events store"): the events the target
 * rejected terminally, kept for diagnosis in {@code <target queue dir>/failed/} and never
 * republished.
 *
 * <p>Each record is one file, {@code <failed_at epoch ms, 13 digits>-<msg id>.json} (format in
 * {@link FailedRecordFormat}), so names sort oldest first and the age of a record is known
 * without opening it. The directory is created by the first write; a target that never fails
 * terminally has none. Characters of the msg id outside {@code [A-Za-z0-9._-]} become {@code _}
 * in the name.
 *
 * <p>The record count and a sorted index of names are cached in memory: seeded by a directory
 * scan at {@link #open}, reconciled by {@link #maintain()}. Writes and maintenance run under one
 * exclusive guard, so the at-bound check and the write are atomic against concurrent writers,
 * and no JSON is parsed under it. The bounds ({@link Limits}) are separate from the live
 * queue's {@code queue_limit}.
 *
 * <p>The static {@link #list(Path)} and {@link #read(Path)} take no guard and change nothing, for
 * {@code bin/jetsink failed list|show} while the daemon runs.
 */
public final class FailedEventStore {
    /** Name of the store's directory inside a target's queue directory. */
    public static final String DIRECTORY = "failed";

    private static final Logger log = LoggerFactory.getLogger(FailedEventStore.class);

    /**
     * The store's bounds.
     *
     * @param maxRecords records kept per target; at the bound the oldest is deleted
     * @param retention  records whose {@code failed_at} is older than this are expired by maintenance
     */
    public record Limits(int maxRecords, Duration retention) {
        /** The default bounds of the key table: 10 000 records, 72 hours. */
        public static final Limits DEFAULT = new Limits(TargetSettings.DEFAULT_FAILED_MAX_RECORDS,
            TargetSettings.DEFAULT_FAILED_MAX_AGE);

        public Limits {
            Objects.requireNonNull(retention, "retention");
            if (maxRecords < 1) {
                throw new IllegalArgumentException("maxRecords must be at least 1: " + maxRecords);
            }
            if (retention.isNegative() || retention.isZero()) {
                throw new IllegalArgumentException("retention must be positive: " + retention);
            }
        }
    }

    /**
     * A record's file as its name describes it, known without reading the file.
     *
     * @param path     the file
     * @param failedAt the {@code failed_at} carried in the name (millisecond resolution)
     * @param msgId    the msg id as it appears in the name
     */
    public record StoredFile(Path path, Instant failedAt, String msgId) {
        public StoredFile {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(failedAt, "failedAt");
            Objects.requireNonNull(msgId, "msgId");
        }

        public String fileName() {
            return path.getFileName().toString();
        }
    }

    /**
     * What one maintenance pass did.
     *
     * @param cachedBefore the cached count before the pass
     * @param onDisk       records found by the directory scan
     * @param expired      records deleted for age
     * @param count        the cached count after the pass
     */
    public record MaintenanceReport(int cachedBefore, int onDisk, int expired, int count) {
    }

    private final Path dir;
    private final String target;
    private final Limits limits;
    private final Clock clock;
    private final ReentrantLock guard = new ReentrantLock();
    private TreeSet<StoredFile> index; // guarded by guard
    private volatile int count;
    // The failed_at of the oldest record, cached beside the count so a scrape never takes the guard.
    private volatile Optional<Instant> oldest = Optional.empty();

    private FailedEventStore(Path dir, String target, Limits limits, Clock clock, TreeSet<StoredFile> index) {
        this.dir = dir;
        this.target = target;
        this.limits = limits;
        this.clock = clock;
        this.index = index;
        cacheFromIndex();
    }

    /**
     * Opens the store of the target whose queue directory is {@code targetQueueDir}, seeding the
     * cached index from the directory and removing temporary files left by an interrupted write.
     * Never fails on a bad directory: the store must exist even for a target whose init failed,
     * so a failed scan is logged, the store starts empty and the next {@link #maintain()} retries.
     *
     * @param target the target's display id, used in log lines
     */
    public static FailedEventStore open(Path targetQueueDir, String target, Limits limits, Clock clock) {
        Path dir = directory(targetQueueDir);
        TreeSet<StoredFile> seeded = FailedFileNames.oldestFirst();
        try {
            seeded = FailedFileNames.scan(dir, true);
        } catch (IOException e) {
            log.warn("failed store scan failed at open, count starts at 0 until maintenance: target=\"{}\" dir={} reason={}",
                    target, dir, e.toString());
        }
        return new FailedEventStore(dir, target, limits, clock, seeded);
    }

    /** {@link #open(Path, String, Limits, Clock)} with the default bounds. */
    public static FailedEventStore open(Path targetQueueDir, String target, Clock clock) {
        return open(targetQueueDir, target, Limits.DEFAULT, clock);
    }

    /** The failed-store directory of a target queue directory (it may not exist). */
    public static Path directory(Path targetQueueDir) {
        return targetQueueDir.resolve(DIRECTORY);
    }

    /**
     * Durably records a terminally rejected event. Returns only after the file and its directory
     * entry are forced to disk, so the caller may then resolve the live queue entry. At the count
     * bound the oldest record is deleted first, with a warning naming it. Logs one ERROR line
     * naming the event and the error.
     *
     * @return the file written
     * @throws IOException when the record could not be made durable; no new record is visible
     *                     and the caller must keep the entry queued
     */
    public StoredFile write(FailedRecord failed) throws IOException {
        FailedRecord record = failed;
        if (record.failedAt().isBefore(Instant.EPOCH)) {
            throw new IllegalArgumentException("failedAt before the epoch: " + record.failedAt());
        }
        byte[] json = FailedRecordFormat.encode(record); // outside the guard: pure CPU work
        StoredFile file = fileOf(record);
        guard.lock();
        try {
            ensureDirectory();
            // A name already taken (the same event failing again within the millisecond of its
            // previous record, which a replay is about to delete) moves this record's failed_at on
            // by a millisecond: a write never replaces another record.
            while (index.contains(file) || Files.exists(file.path())) {
                record = record.withFailedAt(record.failedAt().plusMillis(1));
                file = fileOf(record);
                json = FailedRecordFormat.encode(record);
            }
            Path temp = dir.resolve(FailedFileNames.TEMP_PREFIX + file.fileName());
            try {
                writeForced(temp, json);
                trimForRoom(file);
                Files.move(temp, file.path(), StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                deleteQuietly(temp, e);
                throw e;
            }
            index.add(file);
            cacheFromIndex();
            forceDirectory(dir);
        } finally {
            guard.unlock();
        }
        log.error("event failed terminally, stored in the failed store: target=\"{}\" bucket={} object={} event={} msg_id={} error={} file={}",
                record.target(), record.bucket(), record.object(), record.eventName(), record.natsMsgId(),
                record.errorDetail(), file.fileName());
        return file;
    }

    /**
     * One maintenance pass: rescans the directory to reconcile the cached index with changes made
     * outside the store, then deletes records whose {@code failed_at} is older than the retention,
     * judged by name alone. A record that cannot be deleted is logged and kept in the count.
     *
     * @throws IOException when the directory cannot be scanned; the cached index is unchanged
     */
    public MaintenanceReport maintain() throws IOException {
        guard.lock();
        try {
            int before = index.size();
            TreeSet<StoredFile> found = FailedFileNames.scan(dir, true);
            int onDisk = found.size();
            if (!found.equals(index)) {
                log.info("failed store reconciled with its directory: target=\"{}\" cached={} on_disk={}", target, before, onDisk);
            }
            Instant cutoff = clock.instant().minus(limits.retention());
            int expired = 0;
            for (Iterator<StoredFile> it = found.iterator(); it.hasNext(); ) {
                StoredFile f = it.next();
                if (!f.failedAt().isBefore(cutoff)) {
                    break; // sorted oldest first: the rest are younger
                }
                try {
                    Files.deleteIfExists(f.path());
                    it.remove();
                    expired++;
                } catch (IOException e) {
                    log.warn("could not delete an expired failed record: target=\"{}\" file={} reason={}", target, f.fileName(), e.toString());
                }
            }
            if (expired > 0) {
                log.info("expired failed records removed: target=\"{}\" removed={} retention={}", target, expired, limits.retention());
            }
            index = found;
            cacheFromIndex();
            return new MaintenanceReport(before, onDisk, expired, count);
        } finally {
            guard.unlock();
        }
    }

    /** This store's records, oldest first, from a fresh scan of the directory (names only). */
    public List<StoredFile> files() throws IOException {
        return new ArrayList<>(FailedFileNames.scan(dir, false));
    }

    /**
     * Deletes records (replayed or purged by an operator) and forces the directory once, so their
     * removal is durable when this returns. A file already gone is not an error.
     *
     * @throws IOException when a file could not be deleted; those deleted before it stay deleted
     */
    public void remove(Collection<StoredFile> files) throws IOException {
        if (files.isEmpty()) {
            return;
        }
        guard.lock();
        try {
            try {
                for (StoredFile f : files) {
                    Files.deleteIfExists(f.path());
                    index.remove(f);
                }
            } finally {
                cacheFromIndex();
                forceDirectory(dir);
            }
        } finally {
            guard.unlock();
        }
    }

    /** Records in the store, from the cache (the {@code failed_store_length} gauge). */
    public int count() {
        return count;
    }

    /**
     * How long ago the oldest record failed, from the cache; empty when the store holds none (the
     * {@code jetsink_failed_oldest_age_seconds} gauge: maintenance deletes it at {@link Limits#retention}).
     */
    public Optional<Duration> oldestAge() {
        return oldest.map(at -> Duration.between(at, clock.instant()));
    }

    /** The store's bounds. */
    public Limits limits() {
        return limits;
    }

    // Under the guard (or in the constructor): the cached count and oldest follow the index.
    private void cacheFromIndex() {
        count = index.size();
        oldest = index.isEmpty() ? Optional.empty() : Optional.of(index.first().failedAt());
    }

    /** The target's display id. */
    public String target() {
        return target;
    }

    /** This store's directory (it may not exist yet). */
    public Path directory() {
        return dir;
    }

    /**
     * The records of a target queue directory, oldest first, from their names alone. Read-only:
     * takes no guard, so it is safe while the daemon runs. Empty when the store has no directory.
     */
    public static List<StoredFile> list(Path targetQueueDir) throws IOException {
        return new ArrayList<>(FailedFileNames.scan(directory(targetQueueDir), false));
    }

    /** Reads one record file. Read-only, takes no guard. */
    public static FailedRecord read(Path file) throws IOException {
        return FailedRecordFormat.decode(Files.readAllBytes(file), file.toString());
    }

    private void trimForRoom(StoredFile incoming) throws IOException {
        // A same-named file is replaced by the rename, so it needs no room.
        while (!index.isEmpty() && index.size() >= limits.maxRecords() && !index.contains(incoming)) {
            StoredFile oldest = index.first();
            Files.deleteIfExists(oldest.path());
            index.remove(oldest);
            cacheFromIndex();
            log.warn("failed store at its bound, oldest record deleted: target=\"{}\" limit={} file={} msg_id={}",
                    target, limits.maxRecords(), oldest.fileName(), oldest.msgId());
        }
    }

    private void ensureDirectory() throws IOException {
        if (!Files.isDirectory(dir)) {
            // Throws FileAlreadyExistsException when something else occupies the name.
            Files.createDirectories(dir);
            forceDirectory(dir.getParent());
        }
    }

    private StoredFile fileOf(FailedRecord record) {
        return new StoredFile(dir.resolve(FailedFileNames.of(record)), record.failedAt(),
            FailedFileNames.safeId(record.natsMsgId()));
    }

    private static void writeForced(Path file, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
    }

    private static void forceDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    private static void deleteQuietly(Path temp, IOException cause) {
        try {
            Files.deleteIfExists(temp);
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
    }
}

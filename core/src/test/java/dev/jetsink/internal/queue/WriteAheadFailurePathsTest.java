package dev.jetsink.internal.queue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.jetsink.internal.queue.QueueFixtures.all;
import static dev.jetsink.internal.queue.QueueFixtures.append;
import static dev.jetsink.internal.queue.QueueFixtures.logs;
import static dev.jetsink.internal.queue.QueueFixtures.meta;
import static dev.jetsink.internal.queue.QueueFixtures.payload;
import static dev.jetsink.internal.queue.QueueFixtures.small;
import static org.assertj.core.api.Assertions.assertThat;

/** The write-ahead (zeros written ahead of the active segment's records) on its failure paths, in the inspector, and its memory. */
class WriteAheadFailurePathsTest {
    @TempDir
    Path dir;

    private static SegmentScanner.Result scan(Path log) throws IOException {
        return SegmentScanner.scan(log, (buf, offset, total) -> { });
    }

    /**
     * A write that stopped short lands in space already filled with zeros, so the partial record
     * is followed by zeros instead of ending the file. In the newest segment (a crash mid-write)
     * that is a torn tail: cut, counted as torn, not damage.
     */
    @Test
    void aPartialLastRecordFollowedByZerosInTheNewestSegmentIsATornTailNotDamage() throws Exception {
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            for (int i = 0; i < 5; i++) {
                written.add(append(q, "e" + i));
            }
        }
        Path newest = logs(dir).get(logs(dir).size() - 1);
        long length = Files.size(newest);
        long lastRecordSize = RecordCodec.recordSize(written.get(4).msgId(), meta("e4"), payload("e4"),
            EntryAttributes.NONE);
        // the fifth record's prefix and most of its body are there, its end is not (zeros, as written ahead)
        try (RandomAccessFile f = new RandomAccessFile(newest.toFile(), "rw")) {
            f.seek(length - 20);
            f.write(new byte[20]);
            f.setLength(length + GroupCommitWriter.WRITE_AHEAD_BYTES);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            assertThat(all(q)).containsExactlyElementsOf(written.subList(0, 4));
            assertThat(q.corruptRecords()).as("a write that stopped short is not damage").isZero();
            assertThat(q.tornTails()).isEqualTo(1);
        }
        assertThat(Files.size(newest)).as("cut at the last whole record").isEqualTo(length - lastRecordSize);
    }

    /**
     * The same bytes in an older segment: the writer never leaves them there (a failed write is cut
     * off, or overwritten with zeros when the cut fails: next test), so they can only be damage —
     * a record whose last bytes the disk zeroed looks the same, and it was acknowledged. Reported
     * and kept, as before the write-ahead.
     */
    @Test
    void aPartialLastRecordFollowedByZerosInAnOlderSegmentIsReportedAsDamageAndKept() throws Exception {
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            for (int i = 0; i < 10; i++) {
                written.add(append(q, "e" + i));
            }
        }
        Path older = logs(dir).get(0);
        long length = Files.size(older);
        try (RandomAccessFile f = new RandomAccessFile(older.toFile(), "rw")) {
            f.seek(length - 20);
            f.write(new byte[20]);
            f.setLength(length + GroupCommitWriter.WRITE_AHEAD_BYTES);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            List<QueuedEntry> expected = new ArrayList<>(written);
            expected.remove(4);
            assertThat(all(q)).containsExactlyElementsOf(expected);
            assertThat(q.corruptRecords()).isEqualTo(1);
            assertThat(q.tornTails()).isZero();
        }
        assertThat(Files.size(older)).as("damaged bytes are kept").isEqualTo(length + GroupCommitWriter.WRITE_AHEAD_BYTES);
    }

    /**
     * Through the writer: a write fails half way (ENOSPC/EIO) inside the zeros written ahead, and
     * the immediate cut fails too. The writer overwrites the failed write with zeros (no new blocks
     * needed), so the next start cuts zeros and reports no damage, and nothing is quarantined.
     */
    @Test
    void aFailedWriteWhoseCutFailsIsCutAtTheNextStartAsATornTailNotDamage() throws Exception {
        FaultyChannels channels = new FaultyChannels();
        QueueOptions options = QueueOptions.withLimit(1000).withChannels(channels);
        QueuedEntry before;
        QueuedEntry after;
        try (SegmentedQueue q = SegmentedQueue.open(dir, options)) {
            before = append(q, "before");
            channels.halfWrites.set(1);
            channels.failTruncates.set(1);
            assertThat(q.append(meta("torn"), payload("torn"))).failsWithin(Duration.ofSeconds(30));
            after = append(q, "after");
            assertThat(logs(dir)).hasSize(2);
        }
        SegmentScanner.Result failed = scan(logs(dir).get(0));
        assertThat(failed.tailZeros()).as("the half record overwritten with zeros").isTrue();
        try (SegmentedQueue q = SegmentedQueue.open(dir, QueueOptions.withLimit(1000))) {
            assertThat(all(q)).containsExactly(before, after);
            assertThat(q.corruptRecords()).as("a failed write is not damage").isZero();
            q.resolve(before.seq());
            q.resolve(after.seq());
        }
        assertThat(dir.resolve(SegmentFiles.QUARANTINE)).as("nothing copied aside as damaged").doesNotExist();
        assertThat(before.seq()).isLessThan(after.seq());
    }

    /** A small segment size bound: zeros never go past it, sealed segments end at their records, nothing lost. */
    @Test
    void smallSegmentMaxBytesKeepsZerosWithinTheBoundAndLosesNothing() throws Exception {
        QueueOptions options = new QueueOptions(1_000_000, 1024, Segment.MAX_RECORDS, Duration.ofMinutes(10),
            Clock.systemUTC(), ChannelFactory.DEFAULT, QueueOptions.DEFAULT_HELD_BYTES);
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, options)) {
            for (int i = 0; i < 30; i++) {
                written.add(append(q, "entry-" + i));
                List<Path> logs = logs(dir);
                for (int k = 0; k < logs.size(); k++) {
                    SegmentScanner.Result r = scan(logs.get(k));
                    assertThat(r.corruptRegions()).isZero();
                    assertThat(r.fileSize()).isLessThanOrEqualTo(Math.max(1024, r.validEnd()));
                    if (k < logs.size() - 1) {
                        assertThat(r.fileSize()).as("sealed %s", logs.get(k)).isEqualTo(r.validEnd());
                    }
                }
            }
            long recordBytes = 0;
            for (Path log : logs(dir)) {
                recordBytes += scan(log).validEnd();
            }
            assertThat(q.bytes()).as("bytes() counts records, not zeros").isEqualTo(recordBytes);
            assertThat(all(q)).containsExactlyElementsOf(written);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, options)) {
            assertThat(all(q)).containsExactlyElementsOf(written);
            assertThat(q.corruptRecords()).isZero();
            assertThat(q.tornTails()).isZero();
        }
    }

    /**
     * A crash after records were forced in the active segment (zeros left behind): nothing
     * acknowledged is lost, the newest segment is cut at its last record and the size accounting
     * matches the records.
     */
    @Test
    void aCrashLeavingZerosLosesNoAcknowledgedEntryAndSizesCountRecordsOnly() throws Exception {
        List<QueuedEntry> written = new ArrayList<>();
        Path copy = dir.resolve("copy");
        try (SegmentedQueue q = SegmentedQueue.open(dir.resolve("q"), small(1000))) {
            for (int i = 0; i < 7; i++) {
                written.add(append(q, "e" + i));
            }
            // what a crash now leaves on disk: copy the directory while the queue is open
            copyTree(dir.resolve("q"), copy);
        }
        Path log = logs(copy).get(0);
        assertThat(scan(log).tailZeros()).isTrue();
        long validEnd = scan(log).validEnd();
        try (SegmentedQueue q = SegmentedQueue.open(copy, small(1000))) {
            assertThat(all(q)).containsExactlyElementsOf(written);
            assertThat(q.corruptRecords()).isZero();
            assertThat(q.tornTails()).isZero();
            assertThat(q.bytes()).isEqualTo(validEnd);
            assertThat(append(q, "next").seq()).isGreaterThan(written.get(6).seq());
        }
    }

    /**
     * The zeros are a heap buffer: every producer thread that writes them (a lone producer writes its
     * own batch) gets a 256 KiB temporary direct buffer from the JDK and keeps it in its thread-local
     * cache for the thread's life. With Jetty's 200 request threads that is up to 50 MiB of direct
     * memory against a default budget of -Xmx192m. Tiny records should not pin 256 KiB per thread.
     */
    @Test
    void producerThreadsDoNotEachKeepAQuarterMegabyteOfDirectMemory() throws Exception {
        java.lang.management.BufferPoolMXBean direct = java.lang.management.ManagementFactory
            .getPlatformMXBeans(java.lang.management.BufferPoolMXBean.class).stream()
            .filter(b -> b.getName().equals("direct")).findFirst().orElseThrow();
        int threads = 16;
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(threads);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        // one record per segment: every append crosses the end of what its file holds
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1))) {
            append(q, "warm-up");
            long baseline = direct.getMemoryUsed();
            for (int i = 0; i < threads; i++) {
                String text = "t" + i;
                Thread t = new Thread(() -> {
                    append(q, text);
                    done.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                started.add(t);
                t.start();
                // one at a time, so each producer writes its own batch
                while (done.getCount() > threads - i - 1) {
                    Thread.sleep(1);
                }
            }
            long grown = direct.getMemoryUsed() - baseline;
            release.countDown();
            for (Thread t : started) {
                t.join();
            }
            assertThat(grown).as("direct memory kept by %d live producer threads", threads)
                .isLessThan((long) threads * 64 * 1024);
        }
    }

    /**
     * QueueInspector ("takes no lock and writes nothing, so it is safe while the daemon runs") maps
     * the whole active segment, zeros included. When the writer rolls meanwhile it truncates that
     * file under the mapping (before this change a segment only shrank after a failed write), and
     * reading the mapped pages past the new end faults (SIGBUS, thrown as InternalError).
     */
    @Test
    void theInspectorSurvivesTheWriterCuttingTheZerosOffTheSegmentItIsReading() throws Exception {
        List<QueuedEntry> seen = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(3))) {
            append(q, "e0");
            append(q, "e1");
            QueueInspector.of(dir).forEachLive(e -> {
                if (seen.isEmpty()) {
                    // the daemon rolls while `jetsink queue list` reads its active segment
                    append(q, "e2");
                    append(q, "e3");
                }
                seen.add(e);
            });
        }
        assertThat(seen).extracting(e -> e.metadata().object()).startsWith("e0", "e1");
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (var s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else if (!p.getFileName().toString().equals("LOCK")) {
                    Files.copy(p, t);
                }
            }
        }
    }
}

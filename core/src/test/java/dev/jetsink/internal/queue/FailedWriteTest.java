package dev.jetsink.internal.queue;

import dev.jetsink.QueueStoreException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.jetsink.internal.queue.QueueFixtures.all;
import static dev.jetsink.internal.queue.QueueFixtures.append;
import static dev.jetsink.internal.queue.QueueFixtures.logs;
import static dev.jetsink.internal.queue.QueueFixtures.meta;
import static dev.jetsink.internal.queue.QueueFixtures.payload;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failed write or fsync fails its batch, never succeeds late, and rolls the segment
 * (DESIGN.md "Queue").
 */
class FailedWriteTest {
    @TempDir
    Path dir;

    private final FaultyChannels channels = new FaultyChannels();

    private QueueOptions options() {
        return QueueOptions.withLimit(1000).withChannels(channels);
    }

    @Test
    void failedFsyncFailsTheAppendAndTheWriterRollsToANewSegment() throws Exception {
        try (SegmentedQueue q = SegmentedQueue.open(dir, options())) {
            QueuedEntry before = append(q, "before");
            channels.failForces.set(1);
            CompletableFuture<QueuedEntry> failed = q.append(meta("lost"), payload("lost"));
            assertThat(failed).failsWithin(java.time.Duration.ofSeconds(30))
                .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .withCauseInstanceOf(QueueStoreException.class)
                .withMessageContaining("fsync");
            QueuedEntry after = append(q, "after");
            assertThat(logs(dir)).hasSize(2);
            assertThat(after.seq()).isGreaterThan(before.seq() + 1);
            assertThat(all(q)).containsExactly(before, after);
            assertThat(q.liveCount()).isEqualTo(2);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, options())) {
            // the failed record reached the page cache but its producer was told it failed
            assertThat(all(q)).extracting(e -> e.metadata().object()).containsExactly("before", "after");
        }
    }

    @Test
    void failedWriteFailsEveryFutureOfItsBatchAndNoneSucceedsLater() {
        try (SegmentedQueue q = SegmentedQueue.open(dir, options())) {
            channels.failWrites.set(1);
            List<CompletableFuture<QueuedEntry>> fs = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                fs.add(q.append(meta("e" + i), payload("e" + i)));
            }
            int failed = 0;
            List<QueuedEntry> ok = new ArrayList<>();
            for (CompletableFuture<QueuedEntry> f : fs) {
                try {
                    ok.add(f.join());
                } catch (CompletionException e) {
                    assertThat(e.getCause()).isInstanceOf(QueueStoreException.class);
                    failed++;
                }
            }
            assertThat(failed).isPositive();
            assertThat(all(q)).containsExactlyElementsOf(ok);
            assertThat(q.liveCount()).isEqualTo(ok.size());
            // capacity of the failed appends was given back
            assertThat(q.reserve(1000 - ok.size())).isNotNull();
        }
    }

    @Test
    void aWriteCutShortByAFullDiskLeavesNoDamageForRecoveryToReport() throws Exception {
        QueuedEntry before;
        QueuedEntry after;
        try (SegmentedQueue q = SegmentedQueue.open(dir, options())) {
            before = append(q, "before");
            // the file also holds the zeros written ahead of the records: the records end here
            long size = RecordCodec.SEGMENT_HEADER_BYTES
                + RecordCodec.recordSize(before.msgId(), meta("before"), payload("before"), EntryAttributes.NONE);
            assertThat(Files.size(logs(dir).get(0))).isGreaterThan(size);
            channels.halfWrites.set(1);
            assertThat(q.append(meta("torn"), payload("torn"))).failsWithin(java.time.Duration.ofSeconds(30));
            assertThat(Files.size(logs(dir).get(0))).as("the half record is cut off at once").isEqualTo(size);
            after = append(q, "after");
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, options())) {
            assertThat(all(q)).containsExactly(before, after);
            assertThat(q.corruptRecords()).as("a failed write is not damage").isZero();
        }
        assertThat(dir.resolve(SegmentFiles.QUARANTINE)).doesNotExist();
    }

    @Test
    void aSegmentThatCannotBeCreatedLeavesNoFileBehind() throws Exception {
        try (SegmentedQueue q = SegmentedQueue.open(dir, options())) {
            QueuedEntry first = append(q, "first");
            // the record write fails, then every new segment's header write: a disk that stays full
            channels.failWrites.set(50);
            for (int i = 0; i < 20; i++) {
                assertThat(q.append(meta("refused"), payload("refused"))).failsWithin(java.time.Duration.ofSeconds(30));
            }
            try (java.util.stream.Stream<Path> files = Files.list(dir.resolve("segments"))) {
                assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".log")))
                    .as("no empty segment per refused append").hasSize(1);
            }
            channels.failWrites.set(0);
            QueuedEntry later = append(q, "later");
            assertThat(all(q)).containsExactly(first, later);
            assertThat(logs(dir)).hasSize(2);
        }
    }

    @Test
    void anUnwritableSidecarIsReportedOncePer10sAndMarksTheQueueUntilItIsWrittenAgain() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean refuse = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
        ChannelFactory sidecarsRefused = (path, opts) -> {
            if (refuse.get() && path.toString().endsWith(".ack")) {
                refused.incrementAndGet();
                throw new java.io.IOException("injected: Read-only file system");
            }
            return java.nio.channels.FileChannel.open(path, opts);
        };
        QueueFixtures.MovableClock clock = new QueueFixtures.MovableClock();
        QueueOptions opts = QueueOptions.withLimit(1000).withChannels(sidecarsRefused).withClock(clock);
        ch.qos.logback.classic.Logger logger =
            (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(SegmentMaintenance.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
            new ch.qos.logback.core.read.ListAppender<>();
        lines.start();
        logger.addAppender(lines);
        try (SegmentedQueue q = SegmentedQueue.open(dir, opts)) {
            QueuedEntry delivered = append(q, "delivered");
            QueuedEntry kept = append(q, "kept");
            refuse.set(true);
            q.resolve(delivered.seq());
            // upkeep retries the dirty sidecar every 50 ms: let it fail many times
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> refused.get() >= 20);
            assertThat(q.lastUpkeepWriteFailureMillis()).isEqualTo(clock.millis());
            assertThat(sidecarLines(lines)).as("one line for %d failures", refused.get()).hasSize(1);

            clock.advance(java.time.Duration.ofSeconds(11));
            int before = refused.get();
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> refused.get() > before + 5);
            assertThat(sidecarLines(lines)).hasSize(2);
            assertThat(sidecarLines(lines).get(1)).containsPattern("same failure [1-9][0-9]* more time\\(s\\) in the last 10 s");

            refuse.set(false);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .until(() -> Files.size(dir.resolve("segments").resolve(logs(dir).get(0).getFileName().toString()
                    .replace(".log", ".ack"))) > 0);
            assertThat(all(q)).containsExactly(kept);
        } finally {
            logger.detachAppender(lines);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, QueueOptions.withLimit(1000))) {
            assertThat(all(q)).extracting(e -> e.metadata().object()).as("the resolution reached the disk in the end")
                .containsExactly("kept");
        }
    }

    private static List<String> sidecarLines(
            ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines) {
        return lines.list.stream().map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
            .filter(m -> m.startsWith("cannot write resolution sidecar")).toList();
    }
}

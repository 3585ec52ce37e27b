package dev.jetsink.internal.queue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.jetsink.internal.queue.QueueFixtures.all;
import static dev.jetsink.internal.queue.QueueFixtures.append;
import static dev.jetsink.internal.queue.QueueFixtures.logs;
import static dev.jetsink.internal.queue.QueueFixtures.small;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The writer keeps zeros written ahead of the active segment's records, so a group commit's fsync
 * does not grow the file: the zeros must never be read as records or damage, must leave a segment
 * the writer leaves, and a crash that leaves them behind must cost nothing but a trim at start.
 */
class WriteAheadTest {
    @TempDir
    Path dir;

    /** End of the valid records in {@code log}, and its size. */
    private static SegmentScanner.Result scan(Path log) throws IOException {
        return SegmentScanner.scan(log, (buf, offset, total) -> { });
    }

    private static boolean zerosAfter(Path log, long from) throws IOException {
        byte[] bytes = Files.readAllBytes(log);
        for (long i = from; i < bytes.length; i++) {
            if (bytes[(int) i] != 0) {
                return false;
            }
        }
        return true;
    }

    @Test
    void theActiveSegmentHoldsZerosAheadOfItsRecordsAndEndsAtItsLastRecordOnceClosed() throws Exception {
        List<QueuedEntry> written = new ArrayList<>();
        Path log;
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            for (int i = 0; i < 3; i++) {
                written.add(append(q, "e" + i));
            }
            log = logs(dir).get(0);
            SegmentScanner.Result open = scan(log);
            assertThat(open.records()).isEqualTo(3);
            assertThat(open.fileSize()).as("zeros written ahead")
                .isGreaterThanOrEqualTo(open.validEnd() + GroupCommitWriter.WRITE_AHEAD_BYTES - 2_000);
            assertThat(open.tailZeros()).isTrue();
            assertThat(open.corruptRegions()).isZero();
            // what the operator's `queue inspect` reads from a running daemon's directory
            List<QueuedEntry> inspected = new ArrayList<>();
            QueueInspector.of(dir).forEachLive(inspected::add);
            assertThat(inspected).containsExactlyElementsOf(written);
            assertThat(all(q)).containsExactlyElementsOf(written);
        }
        SegmentScanner.Result closed = scan(log);
        assertThat(closed.fileSize()).as("cut at close").isEqualTo(closed.validEnd());
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            assertThat(all(q)).containsExactlyElementsOf(written);
            assertThat(q.tornTails()).isZero();
            assertThat(q.corruptRecords()).isZero();
        }
    }

    @Test
    void aSegmentTheWriterRollsAwayFromEndsAtItsLastRecord() throws Exception {
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(2))) {
            for (int i = 0; i < 5; i++) {
                append(q, "e" + i);
            }
            List<Path> logs = logs(dir);
            assertThat(logs).hasSize(3);
            for (Path sealed : logs.subList(0, 2)) {
                SegmentScanner.Result r = scan(sealed);
                assertThat(r.records()).isEqualTo(2);
                assertThat(r.fileSize()).as("%s while the queue is open", sealed.getFileName()).isEqualTo(r.validEnd());
            }
            assertThat(scan(logs.get(2)).tailZeros()).as("the active one still writes ahead").isTrue();
        }
    }

    /**
     * A crash (or a cut that failed) leaves zeros after the last record of the newest segment and,
     * when it came between a roll and the cut, of an older one: the next start cuts them, and
     * neither is a torn write nor damage.
     */
    @Test
    void zerosACrashLeftBehindAreCutAtStartWithoutCountingTornTailsOrDamage() throws Exception {
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(2))) {
            for (int i = 0; i < 4; i++) {
                written.add(append(q, "e" + i));
            }
        }
        List<Path> logs = logs(dir);
        assertThat(logs).hasSize(2);
        List<Long> sizes = new ArrayList<>();
        for (Path log : logs) {
            sizes.add(Files.size(log));
            try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.allocate(GroupCommitWriter.WRITE_AHEAD_BYTES), ch.size());
            }
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(2))) {
            assertThat(all(q)).containsExactlyElementsOf(written);
            assertThat(q.tornTails()).isZero();
            assertThat(q.corruptRecords()).isZero();
            QueuedEntry next = append(q, "after");
            assertThat(next.seq()).as("sequences keep growing").isGreaterThan(written.get(3).seq());
        }
        for (int i = 0; i < logs.size(); i++) {
            assertThat(Files.size(logs.get(i))).as("%s cut back", logs.get(i).getFileName()).isEqualTo(sizes.get(i));
        }
    }

    /**
     * A disk too full for the zeros still takes the records: the append that found it out is
     * acknowledged, the segment stops writing ahead, and whatever part of the zeros reached the
     * disk is cut off when the queue closes.
     */
    @Test
    void zerosTheDiskRefusesHalfWayFailNoAppendAndAreCutAtClose() throws Exception {
        FaultyChannels channels = new FaultyChannels();
        List<QueuedEntry> written = new ArrayList<>();
        Path log;
        try (SegmentedQueue q = SegmentedQueue.open(dir, QueueOptions.withLimit(1000).withChannels(channels))) {
            channels.failZeroWrites.set(1);
            for (int i = 0; i < 5; i++) {
                written.add(append(q, "e" + i));
            }
            assertThat(channels.zeroWrites.get()).as("one attempt, then no more for this segment").isEqualTo(1);
            log = logs(dir).get(0);
            assertThat(scan(log).records()).isEqualTo(5);
        }
        SegmentScanner.Result closed = scan(log);
        assertThat(closed.fileSize()).isEqualTo(closed.validEnd());
        try (SegmentedQueue q = SegmentedQueue.open(dir, QueueOptions.withLimit(1000))) {
            assertThat(all(q)).containsExactlyElementsOf(written);
            assertThat(q.corruptRecords()).isZero();
            assertThat(q.tornTails()).isZero();
        }
    }
}

package dev.jetsink.internal.queue;

import dev.jetsink.QueueStoreException;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.jetsink.internal.queue.QueueFixtures.all;
import static dev.jetsink.internal.queue.QueueFixtures.append;
import static dev.jetsink.internal.queue.QueueFixtures.logs;
import static dev.jetsink.internal.queue.QueueFixtures.small;
import static org.assertj.core.api.Assertions.assertThat;

/** Recovery from real broken files (DESIGN.md "Queue"). */
class QueueCorruptionTest {
    @TempDir
    Path dir;

    private List<QueuedEntry> writeEntries(int n) {
        List<QueuedEntry> out = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            for (int i = 0; i < n; i++) {
                out.add(append(q, "event-" + i + "-" + "x".repeat(100)));
            }
        }
        return out;
    }

    private Path onlyLog() throws IOException {
        return logs(dir).get(0);
    }

    @Test
    void truncatedLastRecordIsCutOffAndEarlierEntriesStay() throws Exception {
        List<QueuedEntry> written = writeEntries(5);
        Path log = onlyLog();
        long size = Files.size(log);
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
            f.setLength(size - 40);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            assertThat(all(q)).containsExactlyElementsOf(written.subList(0, 4));
            assertThat(q.corruptRecords()).isZero();
            assertThat(q.tornTails()).isEqualTo(1);
            assertThat(append(q, "next").seq()).isGreaterThan(written.get(4).seq());
        }
        assertThat(Files.size(log)).isLessThan(size - 40);
    }

    @Test
    void flippedBitsMidSegmentSkipOneRecordAndLaterRecordsAreStillDelivered() throws Exception {
        List<QueuedEntry> written = writeEntries(5);
        Path log = onlyLog();
        long recordSize = (Files.size(log) - RecordCodec.SEGMENT_HEADER_BYTES) / 5;
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
            long at = RecordCodec.SEGMENT_HEADER_BYTES + recordSize * 2 + 60;
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0x24);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            assertThat(all(q)).containsExactly(written.get(0), written.get(1), written.get(3), written.get(4));
            assertThat(q.corruptRecords()).isEqualTo(1);
            assertThat(q.read(written.get(4))).isEqualTo(QueueFixtures.payload(written.get(4).metadata().object()));
        }
        // the damaged bytes are reported, not deleted: the segment keeps its length
        assertThat(Files.size(log)).isEqualTo(RecordCodec.SEGMENT_HEADER_BYTES + recordSize * 5);
    }

    @Test
    void aResolvedSegmentWithDamagedBytesIsQuarantinedNotDeleted() throws Exception {
        List<QueuedEntry> written = writeEntries(5);
        Path log = onlyLog();
        long recordSize = (Files.size(log) - RecordCodec.SEGMENT_HEADER_BYTES) / 5;
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
            long at = RecordCodec.SEGMENT_HEADER_BYTES + recordSize * 2 + 60;
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0x24);
        }
        byte[] damagedBytes = Files.readAllBytes(log);
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            for (QueuedEntry e : all(q)) {
                q.resolve(e.seq());
            }
        }
        Path kept = dir.resolve("damaged").resolve(log.getFileName());
        assertThat(log).doesNotExist();
        assertThat(kept).exists();
        assertThat(Files.readAllBytes(kept)).as("the damaged bytes are kept as they were").isEqualTo(damagedBytes);
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            assertThat(all(q)).as("quarantined records never come back as live entries").isEmpty();
        }
    }

    @Test
    void damagedMagicOfTheFirstRecordStillDeliversTheRest() throws Exception {
        List<QueuedEntry> written = writeEntries(3);
        Path log = onlyLog();
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
            f.seek(RecordCodec.SEGMENT_HEADER_BYTES);
            f.writeInt(0);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            assertThat(all(q)).containsExactly(written.get(1), written.get(2));
            assertThat(q.corruptRecords()).isEqualTo(1);
        }
    }

    @Test
    void zeroFilledTailIsCutAndNotCountedAsATornWrite() throws Exception {
        // zeros after the last record are what the writer writes ahead of its records (or space a
        // crash left unwritten): nothing there was acknowledged or torn
        List<QueuedEntry> written = writeEntries(3);
        Path log = onlyLog();
        long size = Files.size(log);
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
            f.setLength(size + 4096);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            assertThat(all(q)).containsExactlyElementsOf(written);
            assertThat(q.corruptRecords()).isZero();
            assertThat(q.tornTails()).isZero();
        }
        assertThat(Files.size(log)).isEqualTo(size);
    }

    @Test
    void missingSidecarMeansEveryEntryOfThatSegmentReplays() throws Exception {
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            for (int i = 0; i < 4; i++) {
                written.add(append(q, "e" + i));
            }
            q.resolve(written.get(0).seq());
            q.resolve(written.get(2).seq());
        }
        Path log = onlyLog();
        Files.delete(log.resolveSibling(log.getFileName().toString().replace(".log", ".ack")));
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            assertThat(all(q)).containsExactlyElementsOf(written);
        }
    }

    @Test
    void foreignFilesInTheDirectoryAreLeftAloneAndLeftoverTempFilesRemoved() throws Exception {
        List<QueuedEntry> written = writeEntries(2);
        Path segments = dir.resolve("segments");
        Files.writeString(segments.resolve("README.txt"), "operator notes");
        Files.writeString(segments.resolve("123.log"), "not a segment");
        Files.writeString(dir.resolve("notes"), "x");
        Path tmp = segments.resolve(String.format("%020d.log.tmp", written.get(0).seq()));
        Files.writeString(tmp, "half a compaction");
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            assertThat(all(q)).containsExactlyElementsOf(written);
            assertThat(q.corruptRecords()).isZero();
        }
        assertThat(segments.resolve("README.txt")).hasContent("operator notes");
        assertThat(segments.resolve("123.log")).hasContent("not a segment");
        assertThat(tmp).doesNotExist();
    }

    @Test
    void segmentOfAnUnknownFormatVersionIsRefusedNotDeleted() throws Exception {
        writeEntries(1);
        Path log = onlyLog();
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
            f.seek(4);
            f.writeShort(99);
        }
        long size = Files.size(log);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SegmentedQueue.open(dir, small(1000)))
            .isInstanceOf(QueueStoreException.class)
            .hasMessageContaining("has format version 99, written by a newer jetsink; this jetsink reads versions 1 to 2");
        assertThat(Files.size(log)).isEqualTo(size);
        // the failed open released the lock
        Files.writeString(dir.resolve("probe"), "");
    }
}

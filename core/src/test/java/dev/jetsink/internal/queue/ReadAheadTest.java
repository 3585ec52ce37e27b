package dev.jetsink.internal.queue;

import static dev.jetsink.internal.queue.QueueFixtures.all;
import static dev.jetsink.internal.queue.QueueFixtures.append;
import static dev.jetsink.internal.queue.QueueFixtures.logs;
import static dev.jetsink.internal.queue.QueueFixtures.meta;
import static dev.jetsink.internal.queue.QueueFixtures.payload;
import static dev.jetsink.internal.queue.QueueFixtures.small;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jetsink.QueueStoreException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backlog that is not held in memory (the queue was reopened) is read back in runs: records
 * lying end to end come in one read, and the records behind a payload read wait in memory for
 * their publish. Every payload is still the one written, across segments, around resolved and
 * damaged records.
 */
class ReadAheadTest {

    @TempDir
    Path dir;

    private List<QueuedEntry> backlog(int records, int perSegment) {
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(perSegment))) {
            for (int i = 0; i < records; i++) {
                written.add(append(q, "event-" + i));
            }
        }
        return written;
    }

    @Test
    void aBacklogDrainsWithOneReadPerRunNotTwoPerRecord() {
        List<QueuedEntry> written = backlog(600, 200);
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(200))) {
            List<QueuedEntry> page = q.live(0, 4096);
            assertThat(page).containsExactlyElementsOf(written);
            for (int i = 0; i < page.size(); i++) {
                assertThat(q.read(page.get(i))).isEqualTo(payload("event-" + i));
                assertThat(q.resolve(page.get(i).seq())).isTrue();
            }
            // three segments: the page takes one read per segment, the payloads one per run of
            // at most RUN_RECORDS behind the first one read
            assertThat(q.diskReads()).isLessThanOrEqualTo(3 + 6);
            assertThat(q.liveCount()).isZero();
        }
    }

    @Test
    void aRecordResolvedAfterItWasReadAheadIsNoLongerReadable() {
        List<QueuedEntry> written = backlog(10, 100);
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            assertThat(q.read(written.get(0))).isEqualTo(payload("event-0")); // brings 1..9 into memory
            assertThat(q.resolve(written.get(5).seq())).isTrue();
            assertThatThrownBy(() -> q.read(written.get(5))).isInstanceOf(NoSuchElementException.class);
            assertThat(q.read(written.get(6))).isEqualTo(payload("event-6"));
            assertThat(all(q)).hasSize(9);
        }
    }

    @Test
    void aRunEndsAtARecordRecoveryLeftOutAndGoesOnBehindIt() throws Exception {
        List<QueuedEntry> written = backlog(10, 100);
        int size = RecordCodec.recordSize("x".repeat(36), meta("event-0"), payload("event-0"), EntryAttributes.NONE);
        // a payload byte of event-4 (all ten records are the same size)
        long at = RecordCodec.SEGMENT_HEADER_BYTES + 4L * size + size - 2;
        try (RandomAccessFile f = new RandomAccessFile(logs(dir).get(0).toFile(), "rw")) {
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0x5A);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            // recovery found it and left it out of the live index: the runs around it still read
            assertThat(q.read(written.get(3))).isEqualTo(payload("event-3"));
            assertThat(q.read(written.get(5))).isEqualTo(payload("event-5"));
            assertThat(all(q)).doesNotContain(written.get(4));
        }
    }

    @Test
    void damageFoundWhileReadingAheadIsCountedOnceAndFailsOnlyThatRecord() throws Exception {
        List<QueuedEntry> written = backlog(10, 100);
        int size = RecordCodec.recordSize("x".repeat(36), meta("event-0"), payload("event-0"), EntryAttributes.NONE);
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            // damage after recovery, before anything is read: only a read finds it
            try (RandomAccessFile f = new RandomAccessFile(logs(dir).get(0).toFile(), "rw")) {
                long at = RecordCodec.SEGMENT_HEADER_BYTES + 4L * size + size - 2;
                f.seek(at);
                int b = f.read();
                f.seek(at);
                f.write(b ^ 0x5A);
            }
            assertThat(q.read(written.get(0))).isEqualTo(payload("event-0"));
            assertThat(q.corruptRecords()).isEqualTo(1);
            assertThatThrownBy(() -> q.read(written.get(4))).isInstanceOf(QueueStoreException.class)
                .hasMessageContaining("checksum");
            for (int i : new int[] {1, 2, 3, 5, 9}) {
                assertThat(q.read(written.get(i))).isEqualTo(payload("event-" + i));
            }
            assertThat(q.corruptRecords()).isEqualTo(1);
            assertThat(q.liveCount()).isEqualTo(10);
        }
    }
}

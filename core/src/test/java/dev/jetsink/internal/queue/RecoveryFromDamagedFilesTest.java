package dev.jetsink.internal.queue;

import dev.jetsink.QueueStoreException;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.jetsink.internal.queue.QueueFixtures.all;
import static dev.jetsink.internal.queue.QueueFixtures.append;
import static dev.jetsink.internal.queue.QueueFixtures.logs;
import static dev.jetsink.internal.queue.QueueFixtures.meta;
import static dev.jetsink.internal.queue.QueueFixtures.payload;
import static dev.jetsink.internal.queue.QueueFixtures.small;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Recovery from broken files an ordinary crash does not produce: bit rot, crafted payloads, odd
 * sizes (DESIGN.md "Queue").
 */
class RecoveryFromDamagedFilesTest {
    @TempDir
    Path dir;

    private static void flip(Path file, long at) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0x5A);
        }
    }

    private static int size(String text) {
        // every id the queue mints is a UUID: 36 characters
        return RecordCodec.recordSize("x".repeat(36), meta(text), payload(text), EntryAttributes.NONE);
    }

    /** Entries e0..e9 written in one run: two segments of five. */
    private List<QueuedEntry> tenEntriesInTwoSegments() {
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            for (int i = 0; i < 10; i++) {
                written.add(append(q, "e" + i));
            }
        }
        return written;
    }

    @Test
    void damagedLastRecordOfAnOlderSegmentIsReportedAndKeptNotTruncated() throws Exception {
        List<QueuedEntry> written = tenEntriesInTwoSegments();
        Path older = logs(dir).get(0);
        long length = Files.size(older);
        // bit rot inside the msg id of the fifth (acknowledged) record: the segment after it is intact
        flip(older, length - size("e4") + RecordCodec.RECORD_PREFIX_BYTES + 20);
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            List<QueuedEntry> expected = new ArrayList<>(written);
            expected.remove(4);
            assertThat(all(q)).containsExactlyElementsOf(expected);
            assertThat(q.corruptRecords()).isEqualTo(1);
        }
        // the damaged record is evidence, not a torn write: its bytes stay
        assertThat(Files.size(older)).isEqualTo(length);
    }

    @Test
    void aPartialLastRecordOfAnOlderSegmentIsATornTailCutOffNotDamage() throws Exception {
        List<QueuedEntry> written = tenEntriesInTwoSegments();
        Path older = logs(dir).get(0);
        long length = Files.size(older);
        // a write that stopped short (a full disk): the fifth record's prefix is there, its end is not
        try (RandomAccessFile f = new RandomAccessFile(older.toFile(), "rw")) {
            f.setLength(length - 20);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            List<QueuedEntry> expected = new ArrayList<>(written);
            expected.remove(4);
            assertThat(all(q)).containsExactlyElementsOf(expected);
            assertThat(q.corruptRecords()).as("not damage").isZero();
            assertThat(q.tornTails()).isEqualTo(1);
            for (QueuedEntry e : all(q)) {
                q.resolve(e.seq());
            }
        }
        assertThat(dir.resolve("damaged")).as("nothing copied aside").doesNotExist();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            assertThat(all(q)).isEmpty();
            assertThat(q.tornTails()).as("cut once, counted once").isZero();
            assertThat(append(q, "next").seq()).as("no sequence reused").isGreaterThan(written.get(9).seq());
        }
    }

    @Test
    void bytesAfterTheLastRecordOfAnOlderSegmentThatStartNoRecordAreDamage() throws Exception {
        List<QueuedEntry> written = tenEntriesInTwoSegments();
        Path older = logs(dir).get(0);
        byte[] garbage = "this is not a record, whatever wrote it".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        Files.write(older, garbage, java.nio.file.StandardOpenOption.APPEND);
        long length = Files.size(older);
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            assertThat(all(q)).containsExactlyElementsOf(written);
            assertThat(q.corruptRecords()).isEqualTo(1);
            assertThat(q.tornTails()).isZero();
        }
        assertThat(Files.size(older)).as("damage is kept").isEqualTo(length);
    }

    @Test
    void damageSpanningASegmentBoundaryCostsOnlyTheRecordsItTouches() throws Exception {
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            for (int i = 0; i < 12; i++) {
                written.add(append(q, "e" + i));
            }
        }
        List<Path> logs = logs(dir);
        Path a = logs.get(0);
        Path b = logs.get(1);
        long aLength = Files.size(a);
        // the last 10 bytes of the first segment, and the second one's header and start of its first record
        try (RandomAccessFile f = new RandomAccessFile(a.toFile(), "rw")) {
            f.seek(aLength - 10);
            f.write(new byte[10]);
        }
        try (RandomAccessFile f = new RandomAccessFile(b.toFile(), "rw")) {
            f.write(new byte[RecordCodec.SEGMENT_HEADER_BYTES + 20]);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            List<QueuedEntry> expected = new ArrayList<>(written);
            expected.remove(5);
            expected.remove(4);
            assertThat(all(q)).containsExactlyElementsOf(expected);
            // a's damaged tail, b's header, b's first record
            assertThat(q.corruptRecords()).isEqualTo(3);
            assertThat(q.read(written.get(6))).isEqualTo(payload("e6"));
            assertThat(append(q, "next").seq()).isGreaterThan(written.get(11).seq());
        }
        assertThat(Files.size(a)).isEqualTo(aLength);
    }

    @Test
    void recordHiddenInADamagedRecordsPayloadDoesNotShadowTheRecordsAfterIt() throws Exception {
        // a payload that is itself a CRC-valid record with a later sequence number
        ByteBuffer ghost = ByteBuffer.allocate(size("ghost"));
        RecordCodec.encode(ghost, 500, new UUID(1, 2).toString(), 0, meta("ghost"), payload("ghost"), EntryAttributes.NONE);
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            written.add(append(q, "e0"));
            written.add(q.append(meta("e1"), ghost.array()).get(30, TimeUnit.SECONDS));
            written.add(append(q, "e2"));
            written.add(append(q, "e3"));
        }
        Path log = logs(dir).get(0);
        // damage the bucket name of e1 (after seq, queued-at, kind and its 36-character msg id): its
        // CRC fails, its length field is intact
        flip(log, RecordCodec.SEGMENT_HEADER_BYTES + size("e0") + RecordCodec.RECORD_PREFIX_BYTES + 18 + 36 + 2);
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            assertThat(all(q)).containsExactly(written.get(0), written.get(2), written.get(3));
            assertThat(q.corruptRecords()).isEqualTo(1);
            assertThat(q.read(written.get(3))).isEqualTo(payload("e3"));
        }
    }

    @Test
    void damagedLengthThatPointsAtALaterRecordDoesNotSkipTheRecordsBetween() throws Exception {
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            for (int i = 0; i < 5; i++) {
                written.add(append(q, "e" + i));
            }
        }
        Path log = logs(dir).get(0);
        int record = size("e0");
        long e1 = RecordCodec.SEGMENT_HEADER_BYTES + record;
        // e1's body length now claims e2 as well: its declared end is exactly where e3 starts
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
            f.seek(e1 + 4);
            int len = f.readInt();
            f.seek(e1 + 4);
            f.writeInt(len + record);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            assertThat(all(q)).containsExactly(written.get(0), written.get(2), written.get(3), written.get(4));
            assertThat(q.corruptRecords()).isEqualTo(1);
        }
    }

    /**
     * Just-committed records are handed to the dispatcher from memory: one that rots on disk while
     * held is delivered as it was written; once the queue is reopened the disk's copy is what
     * counts, and the damage is found.
     */
    @Test
    void recordHeldInMemoryIsServedAsWrittenAndItsDamageIsFoundOnceReadFromDisk() throws Exception {
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            for (int i = 0; i < 3; i++) {
                written.add(append(q, "e" + i));
            }
            flip(logs(dir).get(0), RecordCodec.SEGMENT_HEADER_BYTES + size("e0") + RecordCodec.RECORD_PREFIX_BYTES + 32);
            assertThat(all(q)).containsExactlyElementsOf(written);
            assertThat(q.read(written.get(1))).isEqualTo(payload("e1"));
            assertThat(q.resolve(written.get(0).seq())).isTrue();
            assertThat(q.read(written.get(2))).isEqualTo(payload("e2"));
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            assertThat(all(q)).containsExactly(written.get(2));
            assertThat(q.corruptRecords()).isEqualTo(1);
        }
    }

    @Test
    void recordThatRotsWhileTheQueueIsOpenIsSkippedInListingsAndStaysQueued() throws Exception {
        // nothing held in memory: every read goes to the segment file
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000).withHeldBytes(0))) {
            List<QueuedEntry> written = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                written.add(append(q, "e" + i));
            }
            // the kind byte of e1 turns into a value no record has (the file is read through the page cache)
            flip(logs(dir).get(0), RecordCodec.SEGMENT_HEADER_BYTES + size("e0") + RecordCodec.RECORD_PREFIX_BYTES + 32);
            assertThat(q.live(0, 1)).containsExactly(written.get(0));
            // a page never ends early at the damaged entry: the entries behind it still page
            assertThat(q.live(written.get(0).seq(), 1)).containsExactly(written.get(2));
            assertThat(all(q)).containsExactly(written.get(0), written.get(2), written.get(3));
            assertThatThrownBy(() -> q.read(written.get(1))).isInstanceOf(QueueStoreException.class)
                .hasMessageContaining("checksum");
            assertThat(q.liveCount()).isEqualTo(4);
            assertThat(q.corruptRecords()).isEqualTo(1);
        }
    }

    @Test
    void checksumValidRecordThatCannotBeDecodedIsSkippedInListingsAndStaysQueued() throws Exception {
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            written.add(append(q, "e0"));
        }
        // a complete record with the next sequence whose kind byte no version writes, CRC made to match
        ByteBuffer odd = ByteBuffer.allocate(size("odd"));
        RecordCodec.encode(odd, written.get(0).seq() + 1, new UUID(3, 4).toString(), 0, meta("odd"), payload("odd"), EntryAttributes.NONE);
        odd.put(RecordCodec.RECORD_PREFIX_BYTES + 16, (byte) 9);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(odd.array(), RecordCodec.RECORD_PREFIX_BYTES, odd.capacity() - RecordCodec.RECORD_PREFIX_BYTES);
        odd.putInt(8, (int) crc.getValue());
        Files.write(logs(dir).get(0), odd.array(), java.nio.file.StandardOpenOption.APPEND);
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            QueuedEntry after = append(q, "after");
            assertThat(all(q)).containsExactly(written.get(0), after);
            assertThat(q.liveCount()).isEqualTo(3);
            assertThat(q.corruptRecords()).isEqualTo(1);
        }
        // the read-only inspector does not stumble over it either
        assertThat(QueueInspector.of(dir).stats().live()).isEqualTo(2);
    }

    @Test
    void segmentNameBeyondTheSequenceRangeIsAForeignFileNotAFailedOpen() throws Exception {
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            written.add(append(q, "e0"));
        }
        Path stray = dir.resolve("segments").resolve("99999999999999999999.log");
        Files.writeString(stray, "not ours");
        Path strayAck = dir.resolve("segments").resolve("99999999999999999999.ack");
        Files.writeString(strayAck, "not ours either");
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            assertThat(all(q)).containsExactlyElementsOf(written);
        }
        assertThat(QueueInspector.of(dir).stats().live()).isEqualTo(1);
        assertThat(stray).hasContent("not ours");
        assertThat(strayAck).hasContent("not ours either");
    }

    @Test
    void emptyAndHeaderOnlySegmentsAreDroppedWithoutReusingTheirSequences() throws Exception {
        long last;
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            last = append(q, "e0").seq();
        }
        Path segments = dir.resolve("segments");
        // a crash right after creating a segment file, and one after writing only part of its header
        Files.write(segments.resolve(String.format("%020d.log", 100)), new byte[0]);
        Files.write(segments.resolve(String.format("%020d.log", 200)), new byte[] {0x4A, 0x53, 0x4B, 0x53, 0, 1, 0});
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            assertThat(all(q)).extracting(QueuedEntry::seq).containsExactly(last);
            assertThat(q.corruptRecords()).isZero();
            assertThat(append(q, "next").seq()).isGreaterThan(200);
        }
    }

    @Test
    void sidecarOfAnotherSizeIsTakenAsNothingResolvedAndCounted() throws Exception {
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            for (int i = 0; i < 4; i++) {
                written.add(append(q, "e" + i));
            }
            q.resolve(written.get(1).seq());
        }
        Path ack = dir.resolve("segments").resolve(String.format("%020d.ack", written.get(0).seq()));
        byte[] bits = Files.readAllBytes(ack);
        assertThat(bits).hasSize(Segment.ACK_FILE_BYTES);
        // shorter or longer than a sidecar: no bit can be trusted, so every entry is live again
        // (delivered twice at worst, with its msg id), never hidden
        for (byte[] odd : List.of(new byte[] {bits[0]}, java.util.Arrays.copyOf(bits, Segment.ACK_FILE_BYTES + 100))) {
            Files.write(ack, odd);
            try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
                assertThat(all(q)).containsExactlyElementsOf(written);
                assertThat(q.sidecarRebuilds()).isEqualTo(1);
            }
            assertThat(Files.readAllBytes(ack)).as("rewritten whole, with its checksum").hasSize(Segment.ACK_FILE_BYTES);
            Files.write(ack, bits);
        }
    }

    @Test
    void corruptOrOlderHighWaterMarkNeverLowersTheNextSequence() throws Exception {
        long last;
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            for (int i = 0; i < 7; i++) {
                append(q, "e" + i);
            }
            last = append(q, "kept").seq();
        }
        Files.writeString(dir.resolve("HWM"), "not a number\n");
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            assertThat(append(q, "a").seq()).isGreaterThan(last);
        }
        Files.writeString(dir.resolve("HWM"), "1\n");
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            assertThat(append(q, "b").seq()).isGreaterThan(last + 1);
        }
    }

    @Test
    void payloadTooLargeToReadBackIsRefusedNotAcknowledged() {
        try (SegmentedQueue q = SegmentedQueue.open(dir, QueueOptions.withLimit(1))) {
            byte[] huge = new byte[RecordCodec.MAX_RECORD_BODY_BYTES];
            assertThatThrownBy(() -> q.append(meta("huge"), huge)).isInstanceOf(IllegalArgumentException.class);
            assertThat(q.liveCount()).isZero();
            // the refused append gave its slot back
            assertThat(append(q, "small").metadata().object()).isEqualTo("small");
        }
    }

    @Test
    void appendWithoutPayloadIsRefusedAndGivesItsSlotBack() {
        try (SegmentedQueue q = SegmentedQueue.open(dir, QueueOptions.withLimit(1))) {
            assertThatThrownBy(() -> q.append(meta("none"), null)).isInstanceOf(NullPointerException.class);
            assertThat(append(q, "small").metadata().object()).isEqualTo("small");
        }
    }
}

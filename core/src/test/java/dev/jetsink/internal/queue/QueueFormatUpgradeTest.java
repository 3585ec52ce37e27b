package dev.jetsink.internal.queue;

import dev.jetsink.QueueStoreException;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * Queue format version 2 and the upgrade path: a queue
 * written by version 1 code (a committed fixture) opens and keeps its entries, msg ids and
 * resolutions; new entries go to new segments in version 2; a newer version is refused without
 * touching anything; sidecars carry a checksum; a caller's msg id is stored as given.
 */
class QueueFormatUpgradeTest {
    @TempDir
    Path root;

    private Path v1Copy() {
        try {
            Path fixture = Path.of(getClass().getResource("/queue-v1/notify-nats-_").toURI());
            Path dir = root.resolve("notify-nats-_");
            try (Stream<Path> files = Files.walk(fixture)) {
                for (Path p : files.toList()) {
                    Files.copy(p, dir.resolve(fixture.relativize(p).toString()));
                }
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String v1Id(int i) {
        return new UUID(0x0123456789ab8defL, 0x8000000000000000L | i).toString();
    }

    @Test
    void aVersion1QueueOpensWithItsEntriesMsgIdsAndResolutions() throws Exception {
        Path dir = v1Copy();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            List<QueuedEntry> live = all(q);
            assertThat(live).extracting(QueuedEntry::seq).containsExactly(1L, 3L, 4L, 5L, 6L, 8L, 9L, 10L, 11L, 12L);
            for (QueuedEntry e : live.subList(0, 9)) {
                assertThat(e.msgId()).isEqualTo(v1Id((int) e.seq()));
            }
            assertThat(UUID.fromString(live.get(9).msgId()).version()).as("the id version 1 minted").isEqualTo(7);
            QueuedEntry four = live.get(2);
            assertThat(four.metadata().object()).isEqualTo("2026/chat-\u00e9t\u00e9.jpg");
            assertThat(four.queuedAt()).isEqualTo(Instant.parse("2026-12-03T12:00:00Z"));
            assertThat(new String(q.read(four), StandardCharsets.UTF_8)).isEqualTo(
                "{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"photos/2026/chat-\u00e9t\u00e9.jpg\",\"Records\":[{\"i\":4}]}");
            assertThat(q.corruptRecords()).isZero();
            assertThat(q.sidecarRebuilds()).as("version 1 sidecars have no checksum and are taken as they are").isZero();
        }
    }

    @Test
    void newEntriesGoToANewVersion2SegmentAndBothReadBackAfterReopening() throws Exception {
        Path dir = v1Copy();
        QueuedEntry added;
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            added = append(q, "after-upgrade");
            assertThat(q.resolve(3)).isTrue();
        }
        assertThat(added.seq()).isEqualTo(13);
        List<Path> logs = logs(dir);
        assertThat(logs).extracting(p -> p.getFileName().toString()).containsExactly(
            "00000000000000000001.log", "00000000000000000006.log", "00000000000000000011.log",
            "00000000000000000013.log");
        assertThat(headerVersion(logs.get(2))).as("a version 1 segment is never appended to").isEqualTo((short) 1);
        assertThat(headerVersion(logs.get(3))).isEqualTo((short) 2);
        assertThat(Files.size(dir.resolve("segments/00000000000000000001.ack")))
            .as("a sidecar jetsink rewrites gets its checksum").isEqualTo(Segment.ACK_FILE_BYTES);
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            assertThat(all(q)).extracting(QueuedEntry::seq).containsExactly(1L, 4L, 5L, 6L, 8L, 9L, 10L, 11L, 12L, 13L);
            assertThat(all(q).get(9)).isEqualTo(added);
            assertThat(q.read(added)).isEqualTo(payload("after-upgrade"));
            assertThat(q.sidecarRebuilds()).isZero();
        }
    }

    @Test
    void aNewerFormatIsRefusedNamingBothVersionsAndNothingIsTouched() throws Exception {
        Path dir = v1Copy();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            append(q, "e");
        }
        // what a later release might leave: a version 3 segment, a temporary file, a torn tail
        Path newest = dir.resolve("segments/00000000000000000020.log");
        ByteBuffer header = RecordCodec.segmentHeader(20);
        header.putShort(4, (short) 3);
        Files.write(newest, Arrays.copyOf(header.array(), 40));
        Files.write(dir.resolve("segments/00000000000000000001.log.tmp"), new byte[] {1, 2, 3});
        Map<String, byte[]> before = snapshot(dir);

        assertThatThrownBy(() -> SegmentedQueue.open(dir, small(5)))
            .isInstanceOf(QueueStoreException.class)
            .hasMessageContaining("has format version 3")
            .hasMessageContaining("this jetsink reads versions 1 to 2")
            .hasMessageContaining("Nothing was changed");

        Map<String, byte[]> after = snapshot(dir);
        assertThat(after.keySet()).isEqualTo(before.keySet());
        before.forEach((name, bytes) -> assertThat(after.get(name)).as(name).isEqualTo(bytes));
    }

    @Test
    void aSidecarFailingItsChecksumIsTakenAsNothingResolvedNeverHidingAnEntry() throws Exception {
        List<QueuedEntry> written;
        Path dir = root.resolve("q");
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            written = List.of(append(q, "a"), append(q, "b"), append(q, "c"));
            q.resolve(written.get(0).seq());
        }
        Path ack = dir.resolve("segments").resolve(String.format("%020d.ack", written.get(0).seq()));
        assertThat(Files.size(ack)).isEqualTo(Segment.ACK_FILE_BYTES);
        // bit rot that sets the bit of the live entry "c"
        try (RandomAccessFile f = new RandomAccessFile(ack.toFile(), "rw")) {
            int bit = (int) (written.get(2).seq() - written.get(0).seq());
            f.seek(bit / 8);
            int b = f.read();
            f.seek(bit / 8);
            f.write(b | (1 << (bit % 8)));
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            assertThat(all(q)).as("every entry live again, c not hidden").containsExactlyElementsOf(written);
            assertThat(q.sidecarRebuilds()).isEqualTo(1);
            q.resolve(written.get(0).seq());
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            assertThat(all(q)).as("the rewritten sidecar is trusted again").containsExactly(written.get(1), written.get(2));
            assertThat(q.sidecarRebuilds()).isZero();
        }
    }

    @Test
    void aCallersMsgIdIsStoredAsGivenAndSurvivesReopening() throws Exception {
        Path dir = root.resolve("q");
        String longest = "~".repeat(128);
        QueuedEntry given;
        QueuedEntry longestEntry;
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            given = q.append(meta("a"), payload("a"), Optional.of("order-42:put@2026-12-03T12:00:00Z"))
                .get(30, TimeUnit.SECONDS);
            longestEntry = q.append(meta("b"), payload("b"), Optional.of(longest)).get(30, TimeUnit.SECONDS);
        }
        assertThat(given.msgId()).isEqualTo("order-42:put@2026-12-03T12:00:00Z");
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            assertThat(all(q)).containsExactly(given, longestEntry);
            assertThat(all(q).get(1).msgId()).isEqualTo(longest);
        }
    }

    @Test
    void subjectAndTraceAttributesAreStoredReadBackAfterReopeningAndSkippedWhenAbsent() throws Exception {
        Path dir = root.resolve("q");
        EntryAttributes routed = EntryAttributes.replays(2).withSubject(Optional.of("rustfs.events.logs%2E2026.caf%C3%A9"))
            .withTrace(Optional.of("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"), Optional.of("v=1"));
        QueuedEntry plain;
        QueuedEntry withAll;
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            plain = q.append(meta("a"), payload("a")).get(30, TimeUnit.SECONDS);
            withAll = q.append(meta("b"), payload("b"), Optional.of("id-b"), routed).get(30, TimeUnit.SECONDS);
        }
        assertThat(withAll.attributes()).isEqualTo(routed);
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            List<QueuedEntry> back = all(q);
            assertThat(back).containsExactly(plain, withAll);
            assertThat(back.get(0).attributes()).isEqualTo(EntryAttributes.NONE);
            assertThat(back.get(1).attributes().subject()).contains("rustfs.events.logs%2E2026.caf%C3%A9");
            assertThat(back.get(1).replays()).isEqualTo(2);
            assertThat(new String(q.read(back.get(1)), java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo(new String(payload("b"), java.nio.charset.StandardCharsets.UTF_8));
        }
        assertThatThrownBy(() -> EntryAttributes.NONE.withSubject(Optional.of("s".repeat(EntryAttributes.MAX_SUBJECT_BYTES + 1))))
            .isInstanceOf(IllegalArgumentException.class);
    }

    private static short headerVersion(Path log) throws IOException {
        byte[] header = new byte[RecordCodec.SEGMENT_HEADER_BYTES];
        try (var in = Files.newInputStream(log)) {
            assertThat(in.readNBytes(header, 0, header.length)).isEqualTo(header.length);
        }
        return ByteBuffer.wrap(header).getShort(4);
    }

    private static Map<String, byte[]> snapshot(Path dir) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                String name = dir.relativize(p).toString();
                if (!name.equals("LOCK")) {
                    files.put(name, Files.readAllBytes(p));
                }
            }
        }
        return files;
    }
}

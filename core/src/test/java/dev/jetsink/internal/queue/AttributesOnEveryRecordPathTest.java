package dev.jetsink.internal.queue;

import dev.jetsink.internal.config.ConfigKey;
import dev.jetsink.internal.config.SubjectTemplate;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.event.MsgIds;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.failed.FailedRecord;
import dev.jetsink.internal.failed.FailedReplay;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.jetsink.internal.queue.QueueFixtures.all;
import static dev.jetsink.internal.queue.QueueFixtures.logs;
import static dev.jetsink.internal.queue.QueueFixtures.meta;
import static dev.jetsink.internal.queue.QueueFixtures.payload;
import static dev.jetsink.internal.queue.QueueFixtures.small;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.awaitility.Awaitility.await;

/**
 * The record attributes (subject, traceparent, tracestate beside
 * the replay count, and the CloudEvents attributes) and the subject-template token encoding that produces the stored subjects:
 * sizing, decoding of crafted and torn records, every path a record takes (reopen, torn tail,
 * compaction, sidecar rebuild, inspector, reservation, concurrent group commit), the failed-store
 * replay that stores a record's subject, and the invariants of {@link SubjectTemplate}.
 */
class AttributesOnEveryRecordPathTest {
    private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private static final String MAX_SUBJECT = "s".repeat(EntryAttributes.MAX_SUBJECT_BYTES);
    private static final String MAX_TRACE = "t".repeat(EntryAttributes.MAX_TRACE_BYTES);

    @TempDir
    Path dir;

    // ------------------------------------------------------------------ helpers

    private static final int[] ODD_CHARS = {'.', '*', '>', '%', '_', '~', '/', ' ', '\t', '\n', '\r', 0, 1, 0x1F, 0x7F,
        0xA0, 0x2028, 0x3000, 0xFEFF, 0xE9, 0x732B, 0x1F600, 0x10FFFF, 'a', 'Z', '0', '-'};

    /** A random string of valid code points, biased to the characters an encoding must handle. */
    private static String randomText(Random r, int maxCodePoints) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(maxCodePoints + 1);
        for (int i = 0; i < n; i++) {
            int cp;
            switch (r.nextInt(4)) {
                case 0 -> cp = ODD_CHARS[r.nextInt(ODD_CHARS.length)];
                case 1 -> cp = 0x20 + r.nextInt(0x5F);
                case 2 -> cp = 0x80 + r.nextInt(0xD800 - 0x80);
                default -> cp = 0x10000 + r.nextInt(0x10FFFF - 0x10000);
            }
            b.appendCodePoint(cp);
        }
        return b.toString();
    }

    /** A random string whose UTF-8 is 1..max bytes. */
    private static String randomAttribute(Random r, int maxBytes) {
        while (true) {
            String s = randomText(r, Math.max(1, r.nextBoolean() ? 8 : maxBytes / 4));
            int bytes = s.getBytes(StandardCharsets.UTF_8).length;
            if (bytes >= 1 && bytes <= maxBytes) {
                return s;
            }
        }
    }

    private static EntryAttributes randomAttributes(Random r) {
        Optional<String> subject = switch (r.nextInt(4)) {
            case 0 -> Optional.empty();
            case 1 -> Optional.of(MAX_SUBJECT);
            default -> Optional.of(randomAttribute(r, EntryAttributes.MAX_SUBJECT_BYTES));
        };
        Optional<String> parent = r.nextBoolean() ? Optional.empty()
            : Optional.of(r.nextBoolean() ? PARENT : randomAttribute(r, EntryAttributes.MAX_TRACE_BYTES));
        Optional<String> state = switch (r.nextInt(3)) {
            case 0 -> Optional.empty();
            case 1 -> Optional.of(MAX_TRACE);
            default -> Optional.of(randomAttribute(r, EntryAttributes.MAX_TRACE_BYTES));
        };
        int replays = switch (r.nextInt(3)) {
            case 0 -> 0;
            case 1 -> 1 + r.nextInt(5);
            default -> Integer.MAX_VALUE;
        };
        Optional<String> cloudEvent = switch (r.nextInt(3)) {
            case 0 -> Optional.empty();
            case 1 -> Optional.of("c".repeat(EntryAttributes.MAX_CLOUD_EVENT_BYTES));
            default -> Optional.of(randomAttribute(r, 512));
        };
        Optional<String> orderKey = switch (r.nextInt(3)) {
            case 0 -> Optional.empty();
            case 1 -> Optional.of("k".repeat(EntryAttributes.MAX_ORDER_KEY_BYTES));
            default -> Optional.of(randomAttribute(r, 256));
        };
        return EntryAttributes.replays(replays).withSubject(subject).withTrace(parent, state).withCloudEvent(cloudEvent)
            .withOrderKey(orderKey);
    }

    /** The attribute combinations the queue-level tests write, one per entry. */
    private static List<EntryAttributes> variety() {
        return List.of(
            EntryAttributes.NONE,
            EntryAttributes.replays(3),
            EntryAttributes.NONE.withSubject(Optional.of("rustfs.photos.ObjectCreated.Put")),
            EntryAttributes.NONE.withCloudEvent(Optional.of("{\"specversion\":\"1.0\",\"id\":\"r.1\"}")),
            EntryAttributes.replays(2).withSubject(Optional.of("caf\u00e9.\u732b.\uD83D\uDE00")),
            EntryAttributes.NONE.withTrace(Optional.of(PARENT), Optional.of("k=v,x=y")),
            EntryAttributes.replays(Integer.MAX_VALUE).withSubject(Optional.of(MAX_SUBJECT))
                .withTrace(Optional.of(PARENT), Optional.of(MAX_TRACE)),
            EntryAttributes.NONE.withTrace(Optional.of(MAX_TRACE), Optional.empty()),
            EntryAttributes.NONE.withOrderKey(Optional.of("photos/caf\u00e9 \uD83D\uDE00.jpg")),
            EntryAttributes.replays(1).withSubject(Optional.of("\u00e9".repeat(EntryAttributes.MAX_SUBJECT_BYTES / 2))));
    }

    private static QueuedEntry append(QueueStore q, String text, EntryAttributes a) {
        try {
            return q.append(meta(text), payload(text), Optional.empty(), a).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("append failed: " + e, e);
        }
    }

    private static List<QueuedEntry> inspected(Path queueDir) throws Exception {
        List<QueuedEntry> out = new ArrayList<>();
        QueueInspector.of(queueDir).forEachLive(out::add);
        return out;
    }

    /** A version 2 record with a hand-made attributes area (declared length given separately), CRC valid. */
    private static ByteBuffer craft(long seq, String msgId, EventMetadata m, int declaredAttributes, byte[] attributes,
                                    byte[] body) {
        ByteBuffer b = ByteBuffer.allocate(1024 + attributes.length + body.length);
        b.putInt(RecordCodec.RECORD_MAGIC).putInt(0).putInt(0);
        int bodyStart = b.position();
        b.putLong(seq).putLong(1234);
        b.put((byte) m.kind().ordinal());
        b.put((byte) msgId.length()).put(msgId.getBytes(StandardCharsets.US_ASCII));
        for (String s : new String[] {m.bucket(), m.object(), m.eventName(), m.contentType()}) {
            byte[] x = s.getBytes(StandardCharsets.UTF_8);
            b.putShort((short) x.length).put(x);
        }
        b.putShort((short) declaredAttributes).put(attributes);
        b.putInt(body.length).put(body);
        int len = b.position() - bodyStart;
        CRC32C crc = new CRC32C();
        crc.update(b.array(), bodyStart, len);
        b.putInt(4, len).putInt(8, (int) crc.getValue());
        b.flip();
        return b.slice();
    }

    private static byte[] attribute(int tag, byte[] value) {
        return ByteBuffer.allocate(3 + value.length).put((byte) tag).putShort((short) value.length).put(value).array();
    }

    private static byte[] concat(byte[]... parts) {
        int n = Arrays.stream(parts).mapToInt(p -> p.length).sum();
        ByteBuffer b = ByteBuffer.allocate(n);
        for (byte[] p : parts) {
            b.put(p);
        }
        return b.array();
    }

    // ------------------------------------------------------------------ codec

    @Test
    void recordSizeIsWhatEncodeWritesAndDecodingGivesItBackForRandomAttributesIdsAndMetadata() {
        Random r = new Random(1515);
        for (int n = 0; n < 3000; n++) {
            EntryAttributes a = randomAttributes(r);
            String id = "i".repeat(1 + r.nextInt(MsgIds.MAX_BYTES));
            EventMetadata m = new EventMetadata(r.nextBoolean() ? TargetKind.NOTIFY : TargetKind.AUDIT,
                randomText(r, 10), randomText(r, 40), randomText(r, 5), randomText(r, 3));
            byte[] body = new byte[r.nextInt(64)];
            r.nextBytes(body);
            int size = RecordCodec.recordSize(id, m, body, a);
            ByteBuffer out = ByteBuffer.allocate(size + 7);
            out.position(3); // not at the start of the array: encode must not assume offset 0
            RecordCodec.encode(out, n + 1, id, 99, m, body, a);
            assertThat(out.position() - 3).as("recordSize of %s", a).isEqualTo(size);
            ByteBuffer record = ByteBuffer.wrap(out.array(), 3, size).slice();
            assertThat(RecordCodec.validBodyLength(record, 0)).isEqualTo(size - RecordCodec.RECORD_PREFIX_BYTES);
            RecordCodec.Decoded d = RecordCodec.tryDecode(record).orElseThrow();
            assertThat(d.attributes()).isEqualTo(a);
            assertThat(d.metadata()).isEqualTo(m);
            assertThat(d.msgId()).isEqualTo(id);
            assertThat(Arrays.copyOfRange(out.array(), 3 + d.payloadOffset(), 3 + d.payloadOffset() + d.payloadLength()))
                .isEqualTo(body);
        }
    }

    @Test
    void everyPrefixOfARecordWithAttributesIsRefusedNeverMisread() {
        EntryAttributes a = EntryAttributes.replays(4).withSubject(Optional.of("a.\u732b.b"))
            .withTrace(Optional.of(PARENT), Optional.of("k=v"));
        EventMetadata m = meta("obj");
        byte[] body = payload("{\"x\":1}");
        int size = RecordCodec.recordSize("msg-1", m, body, a);
        ByteBuffer out = ByteBuffer.allocate(size);
        RecordCodec.encode(out, 5, "msg-1", 1, m, body, a);
        for (int cut = 0; cut < size; cut++) {
            ByteBuffer torn = ByteBuffer.wrap(out.array(), 0, cut).slice();
            assertThat(RecordCodec.validBodyLength(torn, 0)).as("cut at %d", cut).isEqualTo(-1);
            assertThat(RecordCodec.tryDecode(torn)).as("cut at %d", cut).isEmpty();
        }
    }

    @Test
    void unknownTagsAmongKnownOnesAreSkippedAndKnownOnesStillRead() {
        byte[] subject = "a.b".getBytes(StandardCharsets.UTF_8);
        byte[] area = concat(attribute(200, new byte[] {1, 2, 3}), attribute(RecordCodec.ATTR_SUBJECT, subject),
            attribute(9, new byte[0]), attribute(RecordCodec.ATTR_TRACEPARENT, PARENT.getBytes(StandardCharsets.US_ASCII)),
            attribute(255, new byte[300]), attribute(RecordCodec.ATTR_REPLAYS, new byte[] {0, 0, 0, 7}));
        ByteBuffer record = craft(3, "id-3", meta("o"), area.length, area, payload("p"));
        assertThat(RecordCodec.validBodyLength(record, 0)).isPositive();
        RecordCodec.Decoded d = RecordCodec.tryDecode(record).orElseThrow();
        assertThat(d.attributes()).isEqualTo(EntryAttributes.replays(7).withSubject(Optional.of("a.b"))
            .withTrace(Optional.of(PARENT), Optional.empty()));
        assertThat(d.payloadLength()).isEqualTo(1);
    }

    @Test
    void anAttributeRunningPastItsAreaOrTheRecordIsRefusedWithoutThrowing() {
        byte[] subject = attribute(RecordCodec.ATTR_SUBJECT, "abcdef".getBytes(StandardCharsets.US_ASCII));
        // area declared two bytes shorter than the entry in it
        ByteBuffer shortArea = craft(1, "id", meta("o"), subject.length - 2, subject, payload("p"));
        assertThat(RecordCodec.tryDecode(shortArea)).isEmpty();
        // area declared longer than the rest of the record
        ByteBuffer longArea = craft(1, "id", meta("o"), 60_000, subject, payload("p"));
        assertThat(RecordCodec.tryDecode(longArea)).isEmpty();
        // an entry whose own length runs past the record
        byte[] overlong = ByteBuffer.allocate(3).put((byte) RecordCodec.ATTR_SUBJECT).putShort((short) 0xFFFF).array();
        ByteBuffer overrun = craft(1, "id", meta("o"), overlong.length, overlong, payload("p"));
        assertThat(RecordCodec.tryDecode(overrun)).isEmpty();
    }

    /**
     * {@code checkFits} promises to reject "an entry that cannot be stored and read back", so it
     * sizes the body with the attributes area: the largest entry it accepts with the largest
     * attributes encodes to a body the reader accepts, and one byte more is refused.
     */
    @Test
    void theLargestEntryCheckFitsAcceptsEncodesToABodyTheReaderAcceptsAndOneByteMoreIsRefused() {
        EventMetadata m = meta("k");
        int strings = 0;
        for (String s : new String[] {m.bucket(), m.object(), m.eventName(), m.contentType()}) {
            strings += s.getBytes(StandardCharsets.UTF_8).length;
        }
        String id = "i".repeat(MsgIds.MAX_BYTES); // the longest msg id checkFits allows for
        EntryAttributes a = EntryAttributes.replays(1).withSubject(Optional.of(MAX_SUBJECT))
            .withTrace(Optional.of(PARENT), Optional.of(MAX_TRACE));
        int attributeBytes = RecordCodec.recordSize(id, m, new byte[0], a) - RecordCodec.recordSize(id, m, new byte[0],
            EntryAttributes.NONE);
        assertThat(attributeBytes).isEqualTo(7 + 3 + MAX_SUBJECT.length() + 3 + PARENT.length() + 3 + MAX_TRACE.length());
        byte[] body = new byte[RecordCodec.MAX_RECORD_BODY_BYTES - RecordCodec.MIN_BODY_BYTES - MsgIds.MAX_BYTES - strings
            - attributeBytes];
        RecordCodec.checkFits(m, body, a); // accepted: exactly at the limit
        assertThatCode(() -> RecordCodec.checkFits(m, new byte[body.length + 1], a))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exceeds");
        int size = RecordCodec.recordSize(id, m, body, a);
        ByteBuffer out = ByteBuffer.allocate(size);
        RecordCodec.encode(out, 1, id, 1, m, body, a);
        assertThat(RecordCodec.validBodyLength(out, 0))
            .as("body of %d bytes (limit %d) for an entry checkFits accepted", size - RecordCodec.RECORD_PREFIX_BYTES,
                RecordCodec.MAX_RECORD_BODY_BYTES)
            .isEqualTo(size - RecordCodec.RECORD_PREFIX_BYTES)
            .isGreaterThan(RecordCodec.MAX_RECORD_BODY_BYTES - 2); // checkFits is at most one byte conservative
    }

    // ------------------------------------------------------------------ queue paths

    @Test
    void attributesComeBackFromAppendLiveReadReopenAndTheInspector() throws Exception {
        List<EntryAttributes> variety = variety();
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(3))) {
            for (int i = 0; i < variety.size(); i++) {
                QueuedEntry e = append(q, "e" + i, variety.get(i));
                assertThat(e.attributes()).isEqualTo(variety.get(i));
                assertThat(e.replays()).isEqualTo(variety.get(i).replays());
                written.add(e);
            }
            // through a reservation as well (the multi-target ingest path)
            try (Reservation r = q.reserve(2)) {
                written.add(r.append(meta("r0"), payload("r0"), Optional.of("caller-id"), variety.get(5)).get(30, TimeUnit.SECONDS));
                written.add(r.append(meta("r1"), payload("r1"), Optional.empty(), variety.get(3)).get(30, TimeUnit.SECONDS));
            }
            assertThat(all(q)).containsExactlyElementsOf(written);
            for (QueuedEntry e : written) {
                assertThat(q.read(e)).isEqualTo(payload(e.metadata().object()));
            }
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(3))) {
            assertThat(all(q)).containsExactlyElementsOf(written);
            for (QueuedEntry e : written) {
                assertThat(q.read(e)).isEqualTo(payload(e.metadata().object()));
            }
            assertThat(q.corruptRecords()).isZero();
            assertThat(q.tornTails()).isZero();
        }
        assertThat(inspected(dir)).containsExactlyElementsOf(written);
        QueueInspector.Shown shown = QueueInspector.of(dir).show(written.get(5).seq()).orElseThrow();
        assertThat(shown.entry()).isEqualTo(written.get(5));
        assertThat(shown.payload()).isEqualTo(payload("e5"));
    }

    @Test
    void concurrentAppendsWithMixedAttributeSizesAreWrittenAtTheRightOffsets() throws Exception {
        int threads = 6;
        int each = 60;
        List<QueuedEntry> written = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(50))) {
            List<Future<List<QueuedEntry>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    Random r = new Random(thread);
                    List<CompletableFuture<QueuedEntry>> futures = new ArrayList<>();
                    for (int i = 0; i < each; i++) {
                        String text = "t" + thread + "-" + i + "-" + "p".repeat(r.nextInt(300));
                        futures.add(q.append(meta(text), payload(text), Optional.empty(), randomAttributes(r)));
                    }
                    List<QueuedEntry> out = new ArrayList<>();
                    for (CompletableFuture<QueuedEntry> f : futures) {
                        out.add(f.get(60, TimeUnit.SECONDS));
                    }
                    return out;
                }));
            }
            for (Future<List<QueuedEntry>> f : results) {
                written.addAll(f.get(120, TimeUnit.SECONDS));
            }
            written.sort((x, y) -> Long.compare(x.seq(), y.seq()));
            assertThat(all(q)).containsExactlyElementsOf(written);
            for (QueuedEntry e : written) {
                assertThat(q.read(e)).isEqualTo(payload(e.metadata().object()));
            }
        } finally {
            pool.shutdownNow();
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(50))) {
            assertThat(all(q)).containsExactlyElementsOf(written);
            assertThat(q.corruptRecords()).isZero();
            assertThat(q.tornTails()).isZero();
        }
    }

    @Test
    void aTornTailInsideTheLastRecordsAttributesIsCutAndTheRecordsBeforeKeepTheirs() throws Exception {
        EntryAttributes big = EntryAttributes.replays(2).withSubject(Optional.of(MAX_SUBJECT))
            .withTrace(Optional.of(PARENT), Optional.of(MAX_TRACE));
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            written.add(append(q, "a", variety().get(3)));
            written.add(append(q, "b", variety().get(4)));
            written.add(append(q, "c", big));
        }
        Path log = logs(dir).get(logs(dir).size() - 1);
        long length = Files.size(log);
        int lastSize = RecordCodec.recordSize(written.get(2).msgId(), meta("c"), payload("c"), big);
        // cut in the middle of the last record's subject
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
            f.setLength(length - lastSize + 120 + 2000);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            assertThat(all(q)).containsExactlyElementsOf(written.subList(0, 2));
            assertThat(q.tornTails()).isEqualTo(1);
            assertThat(q.corruptRecords()).isZero();
            QueuedEntry d = append(q, "d", big);
            assertThat(d.seq()).isGreaterThan(written.get(2).seq());
            written.set(2, d);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            assertThat(all(q)).containsExactlyElementsOf(written);
            assertThat(q.read(written.get(2))).isEqualTo(payload("d"));
            assertThat(q.corruptRecords()).isZero();
        }
    }

    @Test
    void compactionKeepsEveryLiveEntrysAttributes() throws Exception {
        QueueFixtures.MovableClock clock = new QueueFixtures.MovableClock();
        QueueOptions options = QueueOptions.withLimit(100_000).withSegmentMaxRecords(200).withClock(clock);
        List<EntryAttributes> variety = variety();
        List<QueuedEntry> written = new ArrayList<>();
        List<QueuedEntry> kept = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, options)) {
            for (int i = 0; i < 201; i++) {
                written.add(append(q, "event-" + i, variety.get(i % variety.size())));
            }
            kept.add(written.get(5)); // the big one with every attribute at its limit
            for (int i = 0; i < 200; i++) {
                if (i != 5) {
                    q.resolve(written.get(i).seq());
                }
            }
            kept.add(written.get(200));
            Path sparse = logs(dir).get(0);
            long before = Files.size(sparse);
            clock.advance(Duration.ofMinutes(11));
            await().atMost(10, TimeUnit.SECONDS).until(() -> Files.size(sparse) < before / 20);
            assertThat(all(q)).containsExactlyElementsOf(kept);
            for (QueuedEntry e : kept) {
                assertThat(q.read(e)).isEqualTo(payload(e.metadata().object()));
            }
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, options)) {
            assertThat(all(q)).containsExactlyElementsOf(kept);
            assertThat(q.corruptRecords()).isZero();
        }
        assertThat(inspected(dir)).containsExactlyElementsOf(kept);
    }

    @Test
    void aRebuiltSidecarBringsEntriesBackWithTheirAttributes() throws Exception {
        List<EntryAttributes> variety = variety();
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            for (int i = 0; i < variety.size(); i++) {
                written.add(append(q, "e" + i, variety.get(i)));
            }
            for (int i = 0; i < variety.size(); i += 2) {
                q.resolve(written.get(i).seq());
            }
        }
        Path log = logs(dir).get(0);
        Path ack = log.resolveSibling(log.getFileName().toString().replace(".log", ".ack"));
        assertThat(ack).exists();
        Files.write(ack, new byte[] {1, 2, 3}); // wrong size: taken as nothing resolved
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            assertThat(q.sidecarRebuilds()).isEqualTo(1);
            assertThat(all(q)).containsExactlyElementsOf(written);
            assertThat(q.corruptRecords()).isZero();
        }
    }

    /**
     * The queue acknowledges an entry checkFits accepted, but with a subject attribute its body is
     * over {@link RecordCodec#MAX_RECORD_BODY_BYTES}: reading it fails its "checksum", and reopening the
     * queue cuts it off as a torn tail. An acknowledged entry is lost.
     */
    @Test
    void anEntryTheQueueAcknowledgesAtTheSizeLimitIsReadBackAndSurvivesReopen() throws Exception {
        EventMetadata m = meta("k");
        int strings = 0;
        for (String s : new String[] {m.bucket(), m.object(), m.eventName(), m.contentType()}) {
            strings += s.getBytes(StandardCharsets.UTF_8).length;
        }
        byte[] body = new byte[RecordCodec.MAX_RECORD_BODY_BYTES - RecordCodec.MIN_BODY_BYTES - MsgIds.MAX_BYTES - strings];
        Arrays.fill(body, (byte) 'x');
        EntryAttributes a = EntryAttributes.NONE.withSubject(Optional.of(MAX_SUBJECT));
        QueuedEntry acked;
        SoftAssertions softly = new SoftAssertions();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            CompletableFuture<QueuedEntry> f;
            try {
                f = q.append(m, body, Optional.empty(), a);
            } catch (IllegalArgumentException refused) {
                return; // refusing the entry up front is a correct answer
            }
            try {
                acked = f.get(60, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof IllegalArgumentException) {
                    return; // so is failing its future as too large
                }
                throw e;
            }
            softly.assertThatCode(() -> q.read(acked)).as("reading the acknowledged entry").doesNotThrowAnyException();
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            softly.assertThat(all(q)).as("the acknowledged entry after reopen").extracting(QueuedEntry::seq)
                .containsExactly(acked.seq());
            softly.assertThat(q.tornTails()).as("torn tails cut on reopen").isZero();
        }
        softly.assertAll();
    }

    /**
     * UTF-8 cannot carry an unpaired surrogate: stored, it would read back as '?'. The attributes
     * refuse such a value up front, so what the queue acknowledges is what it reads back; a pair
     * (a real supplementary character) is fine.
     */
    @Test
    void aSubjectTheRecordCannotStoreExactlyIsRefusedAndAPairIsStoredExactly() throws Exception {
        for (String bad : List.of("a.\uD800", "\uDC00", "x\uDE00\uD83D")) {
            assertThatCode(() -> EntryAttributes.NONE.withSubject(Optional.of(bad))).as(bad)
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unpaired");
            assertThatCode(() -> EntryAttributes.NONE.withTrace(Optional.of(bad), Optional.empty())).as(bad)
                .isInstanceOf(IllegalArgumentException.class);
        }
        EntryAttributes a = EntryAttributes.NONE.withSubject(Optional.of("a.\uD83D\uDE00"));
        QueuedEntry e;
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            e = append(q, "x", a);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            assertThat(all(q)).extracting(QueuedEntry::attributes).containsExactly(e.attributes());
        }
    }

    // ------------------------------------------------------------------ failed-store replay

    private static FailedRecord failed(int i, String subject, int replays) {
        String json = "{\"i\":" + i + "}";
        Instant at = Instant.parse("2026-12-01T00:00:00Z").plusSeconds(i);
        return new FailedRecord(100 + i, "msg-" + i, "notify primary:nats", TargetKind.NOTIFY, subject, "photos",
            "obj-" + i, "s3:ObjectCreated:Put", at, at.plusMillis(5), FailedRecord.TERMINAL, "stream refused",
            3, json.getBytes(StandardCharsets.UTF_8), "image/jpeg", replays, Optional.empty(), Optional.empty());
    }

    @Test
    void aReplayKeepingSubjectsStoresEachRecordsSubjectWithItsRaisedReplayCount() throws Exception {
        FailedEventStore store = FailedEventStore.open(dir, "notify primary:nats", Clock.systemUTC());
        store.write(failed(1, "rustfs.photos.ObjectCreated.Put.a", 0));
        store.write(failed(2, "rustfs.caf%C3%A9.ObjectCreated.Put.b", 4));
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            FailedReplay.Report r = FailedReplay.replay(store, q, FailedReplay.Filter.ALL, false, true, e -> { });
            assertThat(r.done()).isEqualTo(2);
            assertThat(r.problems()).isEmpty();
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            assertThat(all(q)).extracting(QueuedEntry::msgId, QueuedEntry::attributes).containsExactly(
                org.assertj.core.groups.Tuple.tuple("msg-1", EntryAttributes.replays(1)
                    .withSubject(Optional.of("rustfs.photos.ObjectCreated.Put.a"))),
                org.assertj.core.groups.Tuple.tuple("msg-2", EntryAttributes.replays(5)
                    .withSubject(Optional.of("rustfs.caf%C3%A9.ObjectCreated.Put.b"))));
        }
        assertThat(store.files()).isEmpty();
    }

    @Test
    void aReplayKeepsTheCloudEventsAttributesItsMessageCarried() throws Exception {
        FailedEventStore store = FailedEventStore.open(dir, "notify primary:nats", Clock.systemUTC());
        String attributes = "{\"specversion\":\"1.0\",\"id\":\"r.1\"}";
        FailedRecord r = failed(1, "rustfs.events", 0);
        store.write(new FailedRecord(r.id(), r.natsMsgId(), r.target(), r.kind(), r.subject(), r.bucket(), r.object(),
            r.eventName(), r.queuedAt(), r.failedAt(), r.errorClass(), r.errorDetail(), r.retryCount(), r.payload(),
            r.contentType(), r.replays(), Optional.of(attributes), Optional.empty()));
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            FailedReplay.replay(store, q, FailedReplay.Filter.ALL, false, false, e -> { });
            assertThat(all(q)).extracting(QueuedEntry::attributes)
                .containsExactly(EntryAttributes.replays(1).withCloudEvent(Optional.of(attributes)));
        }
    }

    @Test
    void aReplayQueuesTheEventUnderTheOrderKeyItFailedWith() throws Exception {
        FailedEventStore store = FailedEventStore.open(dir, "notify primary:nats", Clock.systemUTC());
        FailedRecord r = failed(1, "rustfs.events", 0);
        store.write(new FailedRecord(r.id(), r.natsMsgId(), r.target(), r.kind(), r.subject(), r.bucket(), r.object(),
            r.eventName(), r.queuedAt(), r.failedAt(), r.errorClass(), r.errorDetail(), r.retryCount(), r.payload(),
            r.contentType(), r.replays(), Optional.empty(), Optional.of("photos/obj-1")));
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            FailedReplay.replay(store, q, FailedReplay.Filter.ALL, false, false, e -> { });
            assertThat(all(q)).extracting(QueuedEntry::attributes)
                .containsExactly(EntryAttributes.replays(1).withOrderKey(Optional.of("photos/obj-1")));
        }
    }

    @Test
    void aReplayNotKeepingSubjectsStoresNone() throws Exception {
        FailedEventStore store = FailedEventStore.open(dir, "notify primary:nats", Clock.systemUTC());
        store.write(failed(1, "rustfs.events", 2));
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            FailedReplay.Report r = FailedReplay.replay(store, q, FailedReplay.Filter.ALL, false, false, e -> { });
            assertThat(r.done()).isEqualTo(1);
            assertThat(all(q)).extracting(QueuedEntry::attributes).containsExactly(EntryAttributes.replays(3));
        }
    }

    /**
     * A failed record whose subject the attributes refuse (empty: the failed-record format allows
     * it; or longer than {@link EntryAttributes#MAX_SUBJECT_BYTES}) makes
     * {@code EntryAttributes.withSubject} throw outside FailedReplay's per-record handling: the
     * whole replay throws, no report, and records already queued keep their failed files.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, EntryAttributes.MAX_SUBJECT_BYTES + 1})
    void oneFailedRecordWithAnUnstorableSubjectDoesNotAbortTheReplayOfTheOthers(int subjectLength) throws Exception {
        FailedEventStore store = FailedEventStore.open(dir, "notify primary:nats", Clock.systemUTC());
        store.write(failed(1, "rustfs.a", 0));
        store.write(failed(2, "x".repeat(subjectLength), 0));
        store.write(failed(3, "rustfs.c", 0));
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            FailedReplay.Report[] report = new FailedReplay.Report[1];
            assertThatCode(() -> report[0] = FailedReplay.replay(store, q, FailedReplay.Filter.ALL, false, true, e -> { }))
                .doesNotThrowAnyException();
            assertThat(all(q)).extracting(QueuedEntry::msgId).contains("msg-1", "msg-3");
            assertThat(store.files()).extracting(FailedEventStore.StoredFile::msgId).doesNotContain("msg-1", "msg-3");
            boolean secondQueued = all(q).stream().anyMatch(e -> e.msgId().equals("msg-2"));
            assertThat(secondQueued || report[0].problems().stream().anyMatch(p -> p.contains("cannot be queued")))
                .as("the bad record is either queued or reported: %s", report[0]).isTrue();
        }
    }

    // ------------------------------------------------------------------ subject templates

    @Test
    void encodedTokensAreSafeBoundedAndDecodeToTheValueOrAPrefixOfIt() {
        Random r = new Random(4242);
        for (int n = 0; n < 20_000; n++) {
            String value = randomText(r, n % 10 == 0 ? 120 : 12);
            String token = SubjectTemplate.encode(value);
            assertThat(token).as(value).isNotEmpty().matches("[A-Za-z0-9_%-]+~?")
                .hasSizeLessThanOrEqualTo(SubjectTemplate.MAX_TOKEN_CHARS);
            assertThat(token.chars()).as(value).noneMatch(c -> c == '.' || c == '*' || c == '>'
                || Character.isWhitespace(c) || Character.isSpaceChar(c) || Character.isISOControl(c));
            if (token.endsWith("~")) {
                assertThat(SubjectTemplate.decode(token)).isEmpty();
                String kept = SubjectTemplate.decode(token.substring(0, token.length() - 1)).orElseThrow();
                assertThat(value).as("a cut token keeps whole characters").startsWith(kept);
            } else {
                assertThat(SubjectTemplate.decode(token)).as(value).contains(value);
            }
        }
    }

    @Test
    void tokensAtTheCutBoundaryAreExact() {
        String fits = "a".repeat(SubjectTemplate.MAX_TOKEN_CHARS);
        assertThat(SubjectTemplate.encode(fits)).isEqualTo(fits);
        assertThat(SubjectTemplate.encode(fits + "b")).hasSize(SubjectTemplate.MAX_TOKEN_CHARS).endsWith("~");
        // 4-byte characters encode to 12 characters each: 20 fit exactly
        String emoji = "\uD83D\uDE00".repeat(20);
        assertThat(SubjectTemplate.encode(emoji)).hasSize(240).doesNotEndWith("~");
        assertThat(SubjectTemplate.decode(SubjectTemplate.encode(emoji))).contains(emoji);
        String cut = SubjectTemplate.encode(emoji + "x");
        assertThat(cut).endsWith("~").hasSize(19 * 12 + 1);
        assertThat(SubjectTemplate.encode("~")).isEqualTo("%7E");
        assertThat(SubjectTemplate.decode("%7E")).contains("~");
        assertThat(SubjectTemplate.decode(SubjectTemplate.encode("%5F"))).contains("%5F");
        assertThat(SubjectTemplate.decode(SubjectTemplate.encode("_%"))).contains("_%");
    }

    /**
     * An unpaired surrogate (a Java string from JSON like {@code "\ud800"}) is encoded as the UTF-8
     * replacement '?', so it decodes to '?' and shares its token with a real '?'.
     */
    @Test
    void loneSurrogatesAreEncodedReversiblyAndDoNotCollideWithQuestionMarks() {
        SoftAssertions softly = new SoftAssertions();
        for (String value : List.of("\uD800", "a\uDC00b", "\uDE00\uD83D")) {
            softly.assertThat(SubjectTemplate.decode(SubjectTemplate.encode(value))).as("round trip of %s",
                value.chars().mapToObj(Integer::toHexString).toList()).contains(value);
        }
        softly.assertThat(SubjectTemplate.encode("\uD800")).as("token of a lone surrogate vs '?'")
            .isNotEqualTo(SubjectTemplate.encode("?"));
        softly.assertAll();
    }

    private static final List<String> NOTIFY_TEMPLATES = List.of(
        "rustfs.{target}.{bucket}.{event}.{key_prefix:8}",
        "{bucket}",
        "{key_prefix:1}",
        "a.{event}",
        "x-y_z.{bucket}.{key_prefix:3}");

    @Test
    void everyResolvedSubjectIsAValidPublishSubjectInsideTheTemplatesSpaceAndStorable() {
        Random r = new Random(99);
        List<String> keys = List.of("", "/", "//", "a//b", "/lead", "trail/", "a/b/c/d/e/f/g/h/i/j", "a.b/c*d/>/e f",
            "x".repeat(5000), "\u732b/".repeat(300), "%2F/_/~/%");
        List<String> events = List.of("", "s3:", "s3:ObjectCreated:Put", "ObjectCreated", "s3:A:B:C", ":", "s3::",
            "a.b:c.d", "s3:*:>");
        for (String text : NOTIFY_TEMPLATES) {
            assertThat(ConfigKey.SUBJECT.rule().check("subject", text)).as(text).isEmpty();
            SubjectTemplate t = SubjectTemplate.parse("subject", text, TargetKind.NOTIFY);
            for (int n = 0; n < 2000; n++) {
                String bucket = n % 7 == 0 ? "" : randomText(r, n % 50 == 0 ? 300 : 10);
                String key = n < keys.size() ? keys.get(n) : n % 3 == 0 ? randomText(r, 40).replace('a', '/')
                    : randomText(r, 10);
                String event = n < events.size() ? events.get(n) : randomText(r, 12);
                String target = n % 5 == 0 ? "_" : randomText(r, 6);
                if (target.isEmpty()) {
                    target = "_";
                }
                EventMetadata m = new EventMetadata(TargetKind.NOTIFY, bucket, key, event, "");
                String subject = resolve(t, m, target);
                assertValidSubject(text, subject);
                assertThat(captures(t.captureSpace(), subject)).as("%s -> %s", text, subject).isTrue();
                assertThatCode(() -> EntryAttributes.NONE.withSubject(Optional.of(subject))).as(subject)
                    .doesNotThrowAnyException();
            }
        }
        SubjectTemplate audit = SubjectTemplate.parse("subject", "audit.{api}.{bucket}.{target}", TargetKind.AUDIT);
        for (int n = 0; n < 2000; n++) {
            EventMetadata m = new EventMetadata(TargetKind.AUDIT, randomText(r, 10), randomText(r, 10), "", "");
            String subject = resolve(audit, m, randomText(r, 4) + "t");
            assertValidSubject("audit", subject);
            assertThat(captures(audit.captureSpace(), subject)).isTrue();
        }
    }

    @Test
    void keyPrefixTokensDecodeToTheKeysLeadingSegments() {
        SubjectTemplate t = SubjectTemplate.parse("subject", "k.{key_prefix:4}", TargetKind.NOTIFY);
        for (String key : List.of("a/b", "/a", "a//b/c/d/e", "caf\u00e9/\uD83D\uDE00/x.y/z*", "_/__/%5F")) {
            String subject = resolve(t, new EventMetadata(TargetKind.NOTIFY, "b", key, "e", ""), "_");
            String[] tokens = subject.split("\\.", -1);
            String[] segments = key.split("/", -1);
            assertThat(tokens).hasSize(1 + Math.min(4, segments.length));
            for (int i = 1; i < tokens.length; i++) {
                assertThat(SubjectTemplate.decode(tokens[i])).as(key).contains(segments[i - 1]);
            }
        }
    }

    /**
     * The template's bound is in UTF-8 bytes, so a non-ASCII literal counts what it will take in
     * the subject: a template that could yield more than the queue stores is refused naming its
     * size, and one just inside the bound resolves to a subject the queue stores.
     */
    @Test
    void aTemplateParseAcceptsResolvesToASubjectTheQueueCanStoreAndAnOversizeOneIsRefused() {
        String over = "\u00e9".repeat(2100) + ".{bucket}";
        assertThat(ConfigKey.SUBJECT.rule().check("subject", over)).isEmpty();
        assertThatCode(() -> SubjectTemplate.parse("subject", over, TargetKind.NOTIFY))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("4442 bytes");
        // 1 624 two-byte characters + dot + a 241-byte token = 3 490 bytes: inside the bound
        String inside = "\u00e9".repeat(1624) + ".{bucket}";
        SubjectTemplate t = SubjectTemplate.parse("subject", inside, TargetKind.NOTIFY);
        String subject = resolve(t, new EventMetadata(TargetKind.NOTIFY, "\u732b".repeat(200), "k", "e", ""), "_");
        assertValidSubject(inside, subject);
        assertThatCode(() -> EntryAttributes.NONE.withSubject(Optional.of(subject)))
            .as("storing a %d-byte subject", subject.getBytes(StandardCharsets.UTF_8).length)
            .doesNotThrowAnyException();
    }

    /** NATS subject-filter matching: '*' one token, '>' one or more trailing tokens. */
    private static boolean captures(String filter, String subject) {
        String[] f = filter.split("\\.", -1);
        String[] s = subject.split("\\.", -1);
        for (int i = 0; i < f.length; i++) {
            if (f[i].equals(">")) {
                return s.length > i;
            }
            if (i >= s.length || !(f[i].equals("*") || f[i].equals(s[i]))) {
                return false;
            }
        }
        return f.length == s.length;
    }

    private static void assertValidSubject(String template, String subject) {
        assertThat(subject).as(template).isNotEmpty();
        assertThat(subject.getBytes(StandardCharsets.UTF_8).length).as(template)
            .isLessThanOrEqualTo(SubjectTemplate.MAX_SUBJECT_BYTES);
        assertThat(subject.split("\\.", -1)).as("%s -> %s", template, subject).noneMatch(String::isEmpty);
        assertThat(subject.chars()).as("%s -> %s", template, subject).noneMatch(c -> c == '*' || c == '>'
            || Character.isWhitespace(c) || Character.isSpaceChar(c) || Character.isISOControl(c));
    }

    private static String resolve(SubjectTemplate t, EventMetadata m, String targetId) {
        return t.resolve(m.bucket(), m.object(), m.eventName(), targetId);
    }
}

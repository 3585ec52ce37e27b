package dev.jetsink.internal.queue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.jetsink.QueueStoreException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;

import static dev.jetsink.internal.queue.QueueFixtures.all;
import static dev.jetsink.internal.queue.QueueFixtures.append;
import static dev.jetsink.internal.queue.QueueFixtures.logs;
import static dev.jetsink.internal.queue.QueueFixtures.payload;
import static dev.jetsink.internal.queue.QueueFixtures.small;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes queue recovery against damaged files (docs/RELIABILITY.md "Fuzzing"): a few records
 * written in small segments, some resolved, the queue closed; then fuzzer-chosen truncations, bit
 * flips, overwrites and appended garbage in segment ({@code .log}) and sidecar ({@code .ack})
 * files; then the queue reopened, twice. Opening refuses only a segment that claims a newer
 * format; every entry it hands back is one that was written, with its payload and metadata; an
 * unresolved record that lies wholly before the first damaged byte of its segment is never lost
 * (unless its sidecar was cut to the 8192 bytes of a version 1 sidecar, which is taken as it is);
 * a second recovery finds what the first left.
 */
class QueueRecoveryFuzzTest {
    /** On tmpfs when there is one: each execution writes and forces a few small files. */
    private static final Path ROOT = root();
    private static int run;

    @AfterAll
    static void removeRoot() throws IOException {
        delete(ROOT);
    }

    /** What was written for one sequence number, and where. */
    private record Written(QueuedEntry entry, byte[] payload, Path log, long end, boolean resolved) {
    }

    @FuzzTest(maxDuration = "10m")
    void recoveryKeepsIntactRecordsAndNeverChangesOne(FuzzedDataProvider data) throws IOException {
        Path dir = ROOT.resolve("q" + (run++ % 2));
        delete(dir);
        int segmentRecords = data.consumeInt(1, 4);
        int n = data.consumeInt(1, 6);
        Map<Long, Written> written = write(dir, segmentRecords, n, data.consumeInt());

        // damage: remember, per file, the first byte that is no longer as written
        List<Path> files = segmentFiles(dir);
        Map<Path, Long> firstDamage = new HashMap<>();
        int ops = data.consumeInt(0, 4);
        for (int i = 0; i < ops && !files.isEmpty(); i++) {
            Path f = data.pickValue(files);
            damage(f, data, firstDamage);
        }

        List<QueuedEntry> first = recover(dir, segmentRecords, written, firstDamage);
        if (first == null) {
            return;
        }
        List<QueuedEntry> second = recover(dir, segmentRecords, written, firstDamage);
        assertThat(second).as("a second recovery finds what the first left").isEqualTo(first);
    }

    private static Map<Long, Written> write(Path dir, int segmentRecords, int n, int resolvedMask) throws IOException {
        List<QueuedEntry> entries = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(segmentRecords))) {
            for (int i = 0; i < n; i++) {
                entries.add(append(q, "e" + i));
            }
            for (int i = 0; i < n; i++) {
                if ((resolvedMask >>> i & 1) != 0) {
                    q.resolve(entries.get(i).seq());
                }
            }
        }
        Map<Long, Written> out = new HashMap<>();
        Map<Long, Integer> index = new HashMap<>();
        for (int i = 0; i < n; i++) {
            index.put(entries.get(i).seq(), i);
        }
        for (Path log : logs(dir)) {
            SegmentScanner.scan(log, (buf, offset, total) -> {
                long seq = RecordCodec.seqAt(buf, offset);
                int i = index.get(seq);
                out.put(seq, new Written(entries.get(i), payload("e" + i), log, offset + (long) total,
                    (resolvedMask >>> i & 1) != 0));
            });
        }
        for (int i = 0; i < n; i++) {
            if ((resolvedMask >>> i & 1) == 0) {
                assertThat(out).as("an unresolved record is in a segment").containsKey(entries.get(i).seq());
            }
        }
        return out;
    }

    private static void damage(Path f, FuzzedDataProvider data, Map<Path, Long> firstDamage) throws IOException {
        long size = Files.size(f);
        long at;
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            switch (data.consumeInt(0, 3)) {
                case 0 -> { // cut
                    at = data.consumeLong(0, size);
                    raf.setLength(at);
                }
                case 1 -> { // flip bits of one byte
                    if (size == 0) {
                        return;
                    }
                    at = data.consumeLong(0, size - 1);
                    raf.seek(at);
                    int b = raf.read();
                    raf.seek(at);
                    raf.write(b ^ data.consumeInt(1, 255));
                }
                case 2 -> { // overwrite a few bytes
                    at = data.consumeLong(0, size);
                    byte[] bytes = data.consumeBytes(16);
                    raf.seek(at);
                    raf.write(bytes);
                    if (bytes.length == 0) {
                        return;
                    }
                }
                default -> { // garbage after the end
                    byte[] bytes = data.consumeBytes(32);
                    if (bytes.length == 0) {
                        return;
                    }
                    at = size;
                    raf.seek(size);
                    raf.write(bytes);
                }
            }
        }
        firstDamage.merge(f, at, Math::min);
    }

    /** Opens, checks and closes the queue; null when the open was a documented refusal. */
    private static List<QueuedEntry> recover(Path dir, int segmentRecords, Map<Long, Written> written,
                                             Map<Path, Long> firstDamage) {
        SegmentedQueue q;
        try {
            q = SegmentedQueue.open(dir, small(segmentRecords));
        } catch (QueueStoreException e) {
            assertThat(e.getMessage()).as("the only refusal: a segment of another format").contains("format version");
            return null;
        }
        try (q) {
            List<QueuedEntry> live = all(q);
            long previous = Long.MIN_VALUE;
            for (QueuedEntry e : live) {
                assertThat(e.seq()).as("live entries in order, once each").isGreaterThan(previous);
                previous = e.seq();
                Written w = written.get(e.seq());
                assertThat(w).as("entry %d was written", e.seq()).isNotNull();
                assertThat(e).as("entry %d as written", e.seq()).isEqualTo(w.entry());
                assertThat(q.read(e)).as("payload of %d", e.seq()).isEqualTo(w.payload());
            }
            List<Long> liveSeqs = live.stream().map(QueuedEntry::seq).toList();
            for (Written w : written.values()) {
                Path ack = w.log().resolveSibling(w.log().getFileName().toString().replace(".log", ".ack"));
                boolean logIntact = w.end() <= firstDamage.getOrDefault(w.log(), Long.MAX_VALUE);
                boolean ackIntact = !firstDamage.containsKey(ack);
                boolean legacySidecar = !ackIntact && Files.exists(ack) && size(ack) == Segment.ACK_BYTES;
                if (logIntact && !w.resolved() && !legacySidecar) {
                    assertThat(liveSeqs).as("intact unresolved record %d kept", w.entry().seq()).contains(w.entry().seq());
                }
                if (ackIntact && w.resolved()) {
                    assertThat(liveSeqs).as("resolved record %d stays resolved", w.entry().seq())
                        .doesNotContain(w.entry().seq());
                }
            }
            return live;
        }
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> segmentFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir.resolve("segments"))) {
            return s.filter(p -> p.toString().endsWith(".log") || p.toString().endsWith(".ack")).sorted().toList();
        }
    }

    private static Path root() {
        try {
            Path shm = Path.of("/dev/shm");
            return Files.isDirectory(shm) && Files.isWritable(shm)
                ? Files.createTempDirectory(shm, "queue-fuzz") : Files.createTempDirectory("queue-fuzz");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path each : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(each);
            }
        }
    }
}

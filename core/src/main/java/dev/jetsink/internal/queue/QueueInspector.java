package dev.jetsink.internal.queue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Read-only view of a queue directory for {@code jetsink queue stats|list|show}. Takes
 * no lock and writes nothing, so it is safe while the daemon runs: a record being written at the
 * tail is simply not shown yet, and a segment deleted mid-read is skipped.
 */
public final class QueueInspector {
    private final Path dir;

    private QueueInspector(Path dir) {
        this.dir = dir;
    }

    public static QueueInspector of(Path dir) {
        return new QueueInspector(dir);
    }

    /**
     * One segment as found on disk.
     *
     * @param file     the {@code .log} file
     * @param records  valid records
     * @param live     records not resolved in the sidecar
     * @param bytes    file size
     * @param corrupt  damaged regions skipped
     */
    public record SegmentInfo(Path file, int records, int live, long bytes, int corrupt) {
    }

    /**
     * What {@code queue stats} prints.
     *
     * @param segments the segment files, oldest first
     * @param live     live entries
     * @param bytes    bytes of all segment files
     * @param oldest   queued-at of the oldest live entry
     * @param corrupt  damaged records skipped
     */
    public record Stats(List<SegmentInfo> segments, long live, long bytes, Optional<Instant> oldest, long corrupt) {
    }

    /** A live entry with its payload (for {@code queue show}). */
    public record Shown(QueuedEntry entry, byte[] payload) {
    }

    public Stats stats() throws IOException {
        List<SegmentInfo> infos = new ArrayList<>();
        long[] live = {0};
        Instant[] oldest = {null};
        long corrupt = 0;
        long bytes = 0;
        for (Path log : logs()) {
            int[] segLive = {0};
            Optional<SegmentScanner.Result> r = scan(log, e -> {
                segLive[0]++;
                if (oldest[0] == null) {
                    oldest[0] = e.entry().queuedAt();
                }
            }, false);
            if (r.isPresent()) {
                infos.add(new SegmentInfo(log, r.get().records(), segLive[0], r.get().fileSize(), r.get().corruptRegions()));
                live[0] += segLive[0];
                bytes += r.get().fileSize();
                corrupt += r.get().corruptRegions();
            }
        }
        return new Stats(infos, live[0], bytes, Optional.ofNullable(oldest[0]), corrupt);
    }

    /** Every live entry, oldest first, without payloads. */
    public void forEachLive(Consumer<QueuedEntry> sink) throws IOException {
        for (Path log : logs()) {
            scan(log, s -> sink.accept(s.entry()), false);
        }
    }

    /** The live entry with sequence {@code seq} and its payload. */
    public Optional<Shown> show(long seq) throws IOException {
        List<Shown> found = new ArrayList<>();
        for (Path log : logs()) {
            scan(log, s -> {
                if (s.entry().seq() == seq) {
                    found.add(s);
                }
            }, true);
            if (!found.isEmpty()) {
                return Optional.of(found.get(0));
            }
        }
        return Optional.empty();
    }

    private Optional<SegmentScanner.Result> scan(Path log, Consumer<Shown> sink, boolean payloads) throws IOException {
        String name = log.getFileName().toString();
        long first = SegmentFiles.firstSeqOf(name).orElseThrow();
        BitSet resolved = SegmentFiles.readAck(log.resolveSibling(name.replace(".log", ".ack"))).resolved();
        try {
            return Optional.of(SegmentScanner.scanCopy(log, (buf, offset, total) -> {
                ByteBuffer record = buf.slice(offset, total);
                Optional<RecordCodec.Decoded> decoded = RecordCodec.tryDecode(record);
                if (decoded.isEmpty()) {
                    return; // checksum-valid but not readable by this version: not shown
                }
                RecordCodec.Decoded d = decoded.get();
                long bit = d.seq() - first;
                if (bit < 0 || bit >= Segment.MAX_RECORDS || resolved.get((int) bit)) {
                    return;
                }
                byte[] payload = new byte[0];
                if (payloads) {
                    payload = new byte[d.payloadLength()];
                    record.get(d.payloadOffset(), payload);
                }
                sink.accept(new Shown(d.entry(), payload));
            }));
        } catch (NoSuchFileException e) {
            // resolved and deleted by the running daemon while we looked
            return Optional.empty();
        }
    }

    private List<Path> logs() throws IOException {
        Path segments = dir.resolve("segments");
        if (!Files.isDirectory(segments)) {
            throw new NoSuchFileException(segments.toString(), null, "not a jetsink queue directory");
        }
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(segments)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                if (SegmentFiles.LOG_NAME.matcher(name).matches() && SegmentFiles.firstSeqOf(name).isPresent()) {
                    out.add(p);
                }
            }
        }
        out.sort(null);
        return out;
    }
}

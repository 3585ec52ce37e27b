package dev.jetsink.internal.queue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.BitSet;
import java.util.EnumSet;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The files of one queue directory: names, creation, deletion and the directory fsyncs around them.
 *
 * <h2>Directory</h2>
 * <pre>
 * &lt;dir&gt;/LOCK                         exclusive file lock of the process that has the queue open
 * &lt;dir&gt;/HWM                          next sequence number, decimal ASCII (survives deletion of all segments)
 * &lt;dir&gt;/segments/&lt;20-digit first-seq&gt;.log   records
 * &lt;dir&gt;/segments/&lt;20-digit first-seq&gt;.ack   resolution sidecar
 * &lt;dir&gt;/damaged/                     resolved segments that held damaged bytes, kept for inspection
 * *.tmp                                temporary files, removed on open
 * </pre>
 */
final class SegmentFiles {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SegmentFiles.class);
    static final Pattern LOG_NAME = Pattern.compile("\\d{20}\\.log");
    static final String TMP_SUFFIX = ".tmp";

    /** Where fully resolved segments holding damaged bytes are kept (see {@link #quarantine}). */
    static final String QUARANTINE = "damaged";

    final Path dir;
    final Path segments;
    final Path hwm;
    private final ChannelFactory channels;
    /** Last value written to {@code HWM}: the file only ever grows. */
    private long highWaterMark;

    SegmentFiles(Path dir, ChannelFactory channels) {
        this.dir = dir;
        this.segments = dir.resolve("segments");
        this.hwm = dir.resolve("HWM");
        this.channels = channels;
    }

    /**
     * The first sequence a segment file name ({@code <20 digits>.log|.ack}) stands for; empty for a
     * name that only looks like one (20 digits beyond the sequence range): that is a foreign file.
     */
    static Optional<Long> firstSeqOf(String name) {
        if (name.length() != 24 || !name.substring(0, 20).chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(name.substring(0, 20)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    Path log(long firstSeq) {
        return segments.resolve(Segment.fileName(firstSeq) + ".log");
    }

    Path ack(long firstSeq) {
        return segments.resolve(Segment.fileName(firstSeq) + ".ack");
    }

    /** Creates a segment: header and empty sidecar written and forced, directory fsynced. */
    Segment create(long firstSeq) throws IOException {
        Segment s = new Segment(firstSeq, log(firstSeq), ack(firstSeq), new BitSet());
        FileChannel w = channels.open(s.log, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
        try {
            Segment.writeFully(w, RecordCodec.segmentHeader(firstSeq), 0);
            w.force(true);
            openAck(s, true).close();
            fsyncDirectory(segments);
            s.reader = FileChannel.open(s.log, StandardOpenOption.READ);
        } catch (IOException | RuntimeException e) {
            closeQuietly(w);
            closeQuietly(s.reader);
            // A full disk refuses the header: leave no empty segment behind (one per refused request
            // once filled a directory with thousands of them).
            try {
                Files.deleteIfExists(s.log);
                Files.deleteIfExists(s.ack);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        s.writer = w;
        s.sizeBytes = RecordCodec.SEGMENT_HEADER_BYTES;
        return s;
    }

    /** Opens the sidecar of a new segment {@code s}, writing it empty (nothing resolved) with its checksum. */
    FileChannel openAck(Segment s, boolean force) throws IOException {
        FileChannel ch = channels.open(s.ack, EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE));
        if (ch.size() < Segment.ACK_FILE_BYTES) {
            Segment.writeFully(ch, ByteBuffer.wrap(Segment.ackFile(new BitSet())), 0);
            if (force) {
                ch.force(true);
            }
        }
        return ch;
    }

    /**
     * What a sidecar says: its resolution bits, or, when it cannot be trusted, nothing resolved and
     * the reason.
     */
    record Sidecar(BitSet resolved, Optional<String> problem) {
    }

    /**
     * Reads a segment's sidecar. Missing: nothing resolved. {@value Segment#ACK_BYTES} bytes: a
     * version 1 sidecar, which has no checksum, taken as it is. {@value Segment#ACK_FILE_BYTES}
     * bytes: the bitmap is used only when its CRC32C matches. Anything else, or a mismatch: nothing
     * resolved, with the problem named, because a set bit hides a live entry for good while a
     * cleared one only delivers it again (with its msg id, so the stream drops the duplicate within
     * its window).
     */
    static Sidecar readAck(Path ack) throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(ack);
        } catch (NoSuchFileException e) {
            return new Sidecar(new BitSet(), Optional.empty());
        }
        if (bytes.length == Segment.ACK_BYTES) {
            return new Sidecar(Segment.parseAck(bytes), Optional.empty());
        }
        if (bytes.length != Segment.ACK_FILE_BYTES) {
            return new Sidecar(new BitSet(), Optional.of("has " + bytes.length + " bytes, not "
                + Segment.ACK_FILE_BYTES));
        }
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(bytes, 0, Segment.ACK_BYTES);
        if ((int) crc.getValue() != ByteBuffer.wrap(bytes).getInt(Segment.ACK_BYTES)) {
            return new Sidecar(new BitSet(), Optional.of("fails its checksum"));
        }
        return new Sidecar(Segment.parseAck(java.util.Arrays.copyOf(bytes, Segment.ACK_BYTES)), Optional.empty());
    }

    /**
     * Deletes a fully resolved segment: the log first, so a crash in between leaves at worst a
     * sidecar without a log (ignored), never a log without its sidecar (which would replay).
     */
    void delete(Segment s) throws IOException {
        closeQuietly(s.writer);
        closeQuietly(s.reader);
        Files.deleteIfExists(s.log);
        Files.deleteIfExists(s.ack);
        fsyncDirectory(segments);
    }

    /**
     * Moves a resolved segment that holds damaged bytes to {@code <dir>/damaged/} with its sidecar,
     * for an operator to inspect, instead of deleting data jetsink could not read.
     */
    Path quarantine(Segment s) throws IOException {
        closeQuietly(s.writer);
        closeQuietly(s.reader);
        Path target = dir.resolve(QUARANTINE);
        Files.createDirectories(target);
        Path moved = target.resolve(s.log.getFileName());
        Files.move(s.log, moved, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        if (Files.exists(s.ack)) {
            Files.move(s.ack, target.resolve(s.ack.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        fsyncDirectory(target);
        fsyncDirectory(segments);
        return moved;
    }

    /** The persisted sequence high-water mark: the next sequence may not be below it. */
    Optional<Long> readHighWaterMark() throws IOException {
        try {
            String text = Files.readString(hwm, StandardCharsets.US_ASCII).trim();
            return text.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(text));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (NumberFormatException e) {
            // written atomically, so only outside damage gets here; the segments still bound the next sequence
            LOG.error("queue high-water mark {} is unreadable; the next sequence follows the segments alone", hwm);
            return Optional.empty();
        }
    }

    /** Writes the high-water mark crash-safely (temp, fsync, rename, directory fsync). */
    synchronized void writeHighWaterMark(long nextSeq) throws IOException {
        if (nextSeq <= highWaterMark) {
            return;
        }
        Path tmp = dir.resolve("HWM" + TMP_SUFFIX);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
            Segment.writeFully(ch, ByteBuffer.wrap((nextSeq + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
            ch.force(true);
        }
        Files.move(tmp, hwm, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        fsyncDirectory(dir);
        highWaterMark = nextSeq;
    }

    static void fsyncDirectory(Path directory) throws IOException {
        try (FileChannel ch = FileChannel.open(directory, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // closing after a failure or after the last use: nothing left to protect
            }
        }
    }
}

package dev.jetsink.internal.queue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads one segment file front to back, yielding every CRC-valid record. A damaged record is
 * skipped by searching forward for the next magic that starts a CRC-valid record (passing over a
 * record-shaped payload inside the damaged record when its sequence shows it); a damaged tail
 * with nothing valid after it is reported as the end of the valid data. Never writes: recovery
 * decides whether to truncate, and the read-only inspector simply stops there.
 */
final class SegmentScanner {

    /** Receives each valid record; {@code buf} is the mapped segment, valid only during the call. */
    @FunctionalInterface
    interface RecordSink {
        void accept(ByteBuffer buf, int offset, int totalLength);
    }

    /**
     * What a scan found.
     *
     * @param fileSize       bytes in the file when mapped
     * @param validEnd       end of the last valid record (or of the header): where a torn tail starts
     * @param records        valid records
     * @param corruptRegions damaged regions skipped in the middle of the segment
     * @param headerValid    whether the segment header was intact with a known version
     * @param tailUnfinished whether the bytes after {@code validEnd} look like a write that stopped
     *                       short: fewer bytes than a record prefix, zeros only, or a record prefix
     *                       whose declared length runs past the end of the file
     * @param tailZeros      whether the bytes after {@code validEnd} are all zeros: the space the
     *                       writer fills ahead of its records, or space the file system allocated
     *                       but a crash left unwritten (nothing in it was ever acknowledged)
     */
    record Result(long fileSize, long validEnd, int records, int corruptRegions, boolean headerValid,
                  boolean tailUnfinished, boolean tailZeros) {
        boolean hasTornTail() {
            return validEnd < fileSize;
        }
    }

    private SegmentScanner() {
    }

    static Result scan(Path file, RecordSink sink) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE) {
                throw new IOException(file + " is larger than any segment jetsink writes");
            }
            MappedByteBuffer buf = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
            return scan(buf, sink);
        }
    }

    /**
     * Like {@link #scan(Path, RecordSink)} on a copy of the file read into the heap, for readers that
     * do not hold the queue's lock ({@link QueueInspector}): a running writer cuts the zeros off a
     * segment it leaves, and a mapping of the cut pages would fault (SIGBUS). A file that shrinks
     * during the read is scanned as far as it was read.
     */
    static Result scanCopy(Path file, RecordSink sink) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE) {
                throw new IOException(file + " is larger than any segment jetsink writes");
            }
            ByteBuffer buf = ByteBuffer.allocate((int) size);
            while (buf.hasRemaining() && ch.read(buf, buf.position()) >= 0) {
                // read until full or the end of a file that got shorter meanwhile
            }
            buf.flip();
            return scan(buf, sink);
        }
    }

    static Result scan(ByteBuffer buf, RecordSink sink) {
        int size = buf.limit();
        boolean headerValid = size >= RecordCodec.SEGMENT_HEADER_BYTES
            && buf.getInt(0) == RecordCodec.SEGMENT_MAGIC
            && RecordCodec.readable(buf.getShort(4));
        int pos = Math.min(size, RecordCodec.SEGMENT_HEADER_BYTES);
        int records = 0;
        int corrupt = 0;
        int validEnd = pos;
        while (pos + RecordCodec.RECORD_PREFIX_BYTES <= size) {
            int len = RecordCodec.validBodyLength(buf, pos);
            if (len < 0) {
                int next = nextValidRecord(buf, pos + 1);
                int end = declaredEnd(buf, pos);
                if (next >= 0 && next < end && end < size && RecordCodec.validBodyLength(buf, end) >= 0
                    && RecordCodec.seqAt(buf, next) >= RecordCodec.seqAt(buf, end)) {
                    // the candidate lies before a valid record yet does not precede it in sequence: it
                    // is a record-shaped payload inside the damaged record, not one of ours
                    next = end;
                }
                if (next < 0) {
                    break;
                }
                corrupt++;
                pos = next;
                continue;
            }
            int total = RecordCodec.RECORD_PREFIX_BYTES + len;
            sink.accept(buf, pos, total);
            records++;
            pos += total;
            validEnd = pos;
        }
        boolean zeros = validEnd < size && zerosFrom(buf, validEnd);
        return new Result(size, validEnd, records, corrupt, headerValid, zeros || unfinished(buf, validEnd), zeros);
    }

    private static boolean zerosFrom(ByteBuffer buf, int from) {
        for (int p = from; p < buf.limit(); p++) {
            if (buf.get(p) != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the tail from {@code from} to the end is the start of a record whose write stopped
     * short (a full disk, a crash): too short for a prefix, or a prefix declaring more bytes than
     * the file holds (zeros only are told apart by {@link #zerosFrom}). Anything else after
     * the last valid record is damage.
     */
    private static boolean unfinished(ByteBuffer buf, int from) {
        int size = buf.limit();
        if (from >= size) {
            return false;
        }
        if (size - from < RecordCodec.RECORD_PREFIX_BYTES) {
            return true;
        }
        int min = RecordCodec.minBodyBytes(buf.getInt(from));
        if (min < 0) {
            return false;
        }
        int len = buf.getInt(from + 4);
        return len >= min && len <= RecordCodec.MAX_RECORD_BODY_BYTES
            && (long) from + RecordCodec.RECORD_PREFIX_BYTES + len > size;
    }

    /**
     * Where the damaged record at {@code pos} ends by its own prefix when that prefix looks intact
     * (magic, plausible length inside the file), or -1.
     */
    private static int declaredEnd(ByteBuffer buf, int pos) {
        int min = RecordCodec.minBodyBytes(buf.getInt(pos));
        if (min < 0) {
            return -1;
        }
        int len = buf.getInt(pos + 4);
        long end = (long) pos + RecordCodec.RECORD_PREFIX_BYTES + len;
        return len < min || len > RecordCodec.MAX_RECORD_BODY_BYTES || end > buf.limit() ? -1 : (int) end;
    }

    /** Position of the next CRC-valid record at or after {@code from}, or -1. */
    private static int nextValidRecord(ByteBuffer buf, int from) {
        // both record magics start with the same byte ("J")
        byte m0 = (byte) (RecordCodec.RECORD_MAGIC >>> 24);
        int last = buf.limit() - RecordCodec.RECORD_PREFIX_BYTES;
        for (int p = from; p <= last; p++) {
            if (buf.get(p) == m0 && RecordCodec.validBodyLength(buf, p) >= 0) {
                return p;
            }
        }
        return -1;
    }
}

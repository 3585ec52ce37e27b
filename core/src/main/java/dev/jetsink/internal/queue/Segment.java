package dev.jetsink.internal.queue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.BitSet;

/**
 * In-memory state of one segment: its files, its resolution bitmap and counters. Mutable fields
 * are guarded by the owning {@link SegmentedQueue}'s lock; the channels are used outside it.
 *
 * <h2>Resolution sidecar ({@code .ack})</h2>
 * <p>8196 bytes: 8192 bytes with one bit per sequence number — bit {@code seq - first} is byte
 * {@code (seq - first) / 8}, bit {@code (seq - first) % 8} (least significant first) — then the
 * CRC32C of those 8192 bytes. A set bit means the entry was resolved (acknowledged or moved to the
 * failed store). A missing sidecar means nothing is resolved; so does one that fails its checksum
 * or has another size (logged, counted in {@link SegmentedQueue#sidecarRebuilds()}): its entries are delivered
 * again with their msg ids rather than hidden. A sidecar of exactly 8192 bytes was written by
 * version 1 code, which had no checksum, and is taken as it is.
 */
final class Segment {
    /** One bit per sequence number a segment can hold (the roll limit), so the sidecar has a fixed size. */
    static final int MAX_RECORDS = 65_536;
    static final int ACK_BYTES = MAX_RECORDS / 8;
    /** A sidecar file of format version 2: the bitmap, then the CRC32C of the bitmap (4 bytes, big-endian). */
    static final int ACK_FILE_BYTES = ACK_BYTES + 4;

    final long firstSeq;
    final Path log;
    final Path ack;
    /** Reads payloads; replaced when the segment is compacted. */
    volatile FileChannel reader;
    /** Open only while this is the writer's segment. */
    FileChannel writer;
    final BitSet resolved;
    int records;
    int live;
    long sizeBytes;
    long lastQueuedAtMs;
    boolean sealed;
    /** After a failed compaction, the clock time before which it is not tried again. */
    long compactNotBeforeMs;
    boolean ackDirty;
    /** Set once compaction or deletion is under way, so the maintenance thread never does it twice. */
    boolean busy;
    /**
     * Holds bytes that failed their checksum. Such a segment is never compacted, and once its
     * readable entries are resolved it is moved to quarantine instead of deleted: jetsink never
     * deletes data it could not read.
     */
    boolean damaged;

    Segment(long firstSeq, Path log, Path ack, BitSet resolved) {
        this.firstSeq = firstSeq;
        this.log = log;
        this.ack = ack;
        this.resolved = resolved;
    }

    boolean contains(long seq) {
        return seq >= firstSeq && seq < firstSeq + MAX_RECORDS;
    }

    int bit(long seq) {
        return (int) (seq - firstSeq);
    }

    /**
     * Snapshot of the sidecar file: the bitmap (bit i of byte i/8, least significant first) and its
     * CRC32C.
     */
    byte[] ackBytes() {
        return ackFile(resolved);
    }

    static byte[] ackFile(BitSet resolved) {
        byte[] out = new byte[ACK_FILE_BYTES];
        byte[] bits = resolved.toByteArray();
        System.arraycopy(bits, 0, out, 0, Math.min(bits.length, ACK_BYTES));
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(out, 0, ACK_BYTES);
        ByteBuffer.wrap(out).putInt(ACK_BYTES, (int) crc.getValue());
        return out;
    }

    static BitSet parseAck(byte[] bytes) {
        return BitSet.valueOf(bytes);
    }

    static void writeFully(FileChannel ch, ByteBuffer buf, long position) throws IOException {
        long pos = position;
        while (buf.hasRemaining()) {
            pos += ch.write(buf, pos);
        }
    }

    static void readFully(FileChannel ch, ByteBuffer buf, long position) throws IOException {
        long pos = position;
        while (buf.hasRemaining()) {
            int n = ch.read(buf, pos);
            if (n < 0) {
                throw new java.io.EOFException("record ends past the end of the segment");
            }
            pos += n;
        }
    }

    static String fileName(long firstSeq) {
        return String.format("%020d", firstSeq);
    }
}

package dev.jetsink.queue;

import dev.jetsink.config.TargetKind;
import dev.jetsink.event.EventMetadata;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * Encodes and decodes segment headers and records; the layout is documented in
 * {@link SegmentedQueue}. All integers big-endian.
 */
final class RecordCodec {
    static final int SEGMENT_MAGIC = 0x4A534B53; // "JSKS"
    static final int RECORD_MAGIC = 0x4A534B52; // "JSKR"
    static final short FORMAT_VERSION = 1;
    static final int SEGMENT_HEADER_BYTES = 16;
    /** magic + body length + CRC32C. */
    static final int RECORD_PREFIX_BYTES = 12;
    /** seq + queued-at + msg id + kind + four string lengths + payload length. */
    static final int MIN_BODY_BYTES = 8 + 8 + 16 + 1 + 4 * 2 + 4;
    /** Larger than any record we write (payloads are capped at 4 MiB upstream); bounds the scan. */
    static final int MAX_BODY_BYTES = 64 * 1024 * 1024;

    private RecordCodec() {
    }

    static ByteBuffer segmentHeader(long firstSeq) {
        ByteBuffer b = ByteBuffer.allocate(SEGMENT_HEADER_BYTES);
        b.putInt(SEGMENT_MAGIC).putShort(FORMAT_VERSION).putShort((short) SEGMENT_HEADER_BYTES).putLong(firstSeq);
        return b.flip();
    }

    /** Size of the whole record (prefix included) for this entry. */
    static int recordSize(EventMetadata m, byte[] payload) {
        return RECORD_PREFIX_BYTES + MIN_BODY_BYTES + utf8(m.bucket()).length + utf8(m.object()).length
            + utf8(m.eventName()).length + utf8(m.contentType()).length + payload.length;
    }

    /** Appends one record to {@code out}, which must have room for {@link #recordSize}. */
    static void encode(ByteBuffer out, long seq, UUID msgId, long queuedAtMs, EventMetadata m, byte[] payload) {
        int start = out.position();
        out.putInt(RECORD_MAGIC).putInt(0).putInt(0);
        int bodyStart = out.position();
        out.putLong(seq).putLong(queuedAtMs).putLong(msgId.getMostSignificantBits()).putLong(msgId.getLeastSignificantBits());
        out.put((byte) m.kind().ordinal());
        putString(out, m.bucket());
        putString(out, m.object());
        putString(out, m.eventName());
        putString(out, m.contentType());
        out.putInt(payload.length).put(payload);
        int bodyLength = out.position() - bodyStart;
        CRC32C crc = new CRC32C();
        crc.update(out.array(), out.arrayOffset() + bodyStart, bodyLength);
        out.putInt(start + 4, bodyLength).putInt(start + 8, (int) crc.getValue());
    }

    /**
     * The body length of a valid record starting at {@code pos}, or -1 when there is no complete,
     * CRC-valid record there. Never throws for garbage.
     */
    static int validBodyLength(ByteBuffer segment, int pos) {
        if (pos < 0 || pos + RECORD_PREFIX_BYTES > segment.limit() || segment.getInt(pos) != RECORD_MAGIC) {
            return -1;
        }
        int len = segment.getInt(pos + 4);
        if (len < MIN_BODY_BYTES || len > MAX_BODY_BYTES || (long) pos + RECORD_PREFIX_BYTES + len > segment.limit()) {
            return -1;
        }
        CRC32C crc = new CRC32C();
        crc.update(segment.slice(pos + RECORD_PREFIX_BYTES, len));
        return (int) crc.getValue() == segment.getInt(pos + 8) ? len : -1;
    }

    static long seqAt(ByteBuffer record, int pos) {
        return record.getLong(pos + RECORD_PREFIX_BYTES);
    }

    static long queuedAtAt(ByteBuffer record, int pos) {
        return record.getLong(pos + RECORD_PREFIX_BYTES + 8);
    }

    /** A decoded record; the payload is only copied when asked for. */
    record Decoded(long seq, String msgId, Instant queuedAt, EventMetadata metadata, int payloadOffset, int payloadLength) {
        QueuedEntry entry() {
            return new QueuedEntry(seq, msgId, queuedAt, metadata, payloadLength);
        }
    }

    /**
     * Decodes the header fields of the record at {@code pos} (CRC not checked here).
     *
     * @throws BufferUnderflowException when {@code buf} ends inside the header
     */
    static Decoded decodeHeader(ByteBuffer buf, int pos) {
        ByteBuffer b = buf.duplicate();
        b.position(pos + RECORD_PREFIX_BYTES);
        long seq = b.getLong();
        long queuedAt = b.getLong();
        UUID id = new UUID(b.getLong(), b.getLong());
        int kindOrdinal = b.get();
        TargetKind[] kinds = TargetKind.values();
        if (kindOrdinal < 0 || kindOrdinal >= kinds.length) {
            throw new IllegalArgumentException("unknown kind " + kindOrdinal + " in record " + seq);
        }
        EventMetadata meta = new EventMetadata(kinds[kindOrdinal], getString(b), getString(b), getString(b), getString(b));
        int payloadLength = b.getInt();
        return new Decoded(seq, id.toString(), Instant.ofEpochMilli(queuedAt), meta, b.position(), payloadLength);
    }

    /**
     * Decodes a whole record held alone in {@code record}, or empty when its fields do not describe
     * exactly that record (unknown kind, lengths running past or short of its end).
     */
    static Optional<Decoded> tryDecode(ByteBuffer record) {
        try {
            Decoded d = decodeHeader(record, 0);
            return (long) d.payloadOffset() + d.payloadLength() == record.limit() && d.payloadLength() >= 0
                ? Optional.of(d) : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void putString(ByteBuffer out, String s) {
        byte[] bytes = utf8(s);
        out.putShort((short) bytes.length).put(bytes);
    }

    private static String getString(ByteBuffer b) {
        int len = Short.toUnsignedInt(b.getShort());
        byte[] bytes = new byte[len];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Rejects an entry that cannot be stored and read back: metadata over the record's 16-bit string
     * lengths, or a body over {@link #MAX_BODY_BYTES}, which recovery and reads would take for damage.
     */
    static void checkFits(EventMetadata m, byte[] payload) {
        Objects.requireNonNull(m, "metadata");
        Objects.requireNonNull(payload, "payload");
        long body = MIN_BODY_BYTES + (long) payload.length;
        for (String s : new String[] {m.bucket(), m.object(), m.eventName(), m.contentType()}) {
            int n = utf8(s).length;
            if (n > 0xFFFF) {
                throw new IllegalArgumentException("metadata field longer than 65535 bytes");
            }
            body += n;
        }
        if (body > MAX_BODY_BYTES) {
            throw new IllegalArgumentException("queue record of " + body + " bytes exceeds the " + MAX_BODY_BYTES + "-byte limit");
        }
    }
}

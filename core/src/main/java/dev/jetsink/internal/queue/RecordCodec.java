package dev.jetsink.internal.queue;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.event.MsgIds;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * Encodes and decodes segment headers and records of the queue's segment files.
 *
 * <h2>Segment file ({@code .log}), format version 2. All integers big-endian.</h2>
 * <table>
 * <caption>Segment header</caption>
 * <tr><th>Offset</th><th>Size</th><th>Field</th></tr>
 * <tr><td>0</td><td>4</td><td>magic {@code 0x4A534B53} ("JSKS")</td></tr>
 * <tr><td>4</td><td>2</td><td>format version of the jetsink that created the file: {@code 2} (or {@code 1})</td></tr>
 * <tr><td>6</td><td>2</td><td>header length, {@code 16}</td></tr>
 * <tr><td>8</td><td>8</td><td>first sequence number (equals the file name)</td></tr>
 * </table>
 * <table>
 * <caption>Record, version 2 (repeated from offset 16; offsets relative to the record)</caption>
 * <tr><th>Offset</th><th>Size</th><th>Field</th></tr>
 * <tr><td>0</td><td>4</td><td>magic {@code 0x4A534B32} ("JSK2"), lets recovery find the next record after damage</td></tr>
 * <tr><td>4</td><td>4</td><td>body length L (bytes from offset 12 to the end of the record)</td></tr>
 * <tr><td>8</td><td>4</td><td>CRC32C (Castagnoli) of the body</td></tr>
 * <tr><td>12</td><td>8</td><td>sequence number</td></tr>
 * <tr><td>20</td><td>8</td><td>queued-at, Unix epoch milliseconds</td></tr>
 * <tr><td>28</td><td>1</td><td>kind: 0 notify, 1 audit</td></tr>
 * <tr><td>29</td><td>1 + n</td><td>{@code Nats-Msg-Id}: length n (1 to 128), printable ASCII without spaces</td></tr>
 * <tr><td></td><td>2 + n</td><td>bucket: unsigned length, UTF-8 bytes</td></tr>
 * <tr><td></td><td>2 + n</td><td>object key, same encoding</td></tr>
 * <tr><td></td><td>2 + n</td><td>event name, same encoding</td></tr>
 * <tr><td></td><td>2 + n</td><td>content type, same encoding</td></tr>
 * <tr><td></td><td>2 + n</td><td>attributes: unsigned length, then entries of tag (1), length (2), bytes:
 *     1 replay count (4 bytes), 2 subject, 3 traceparent, 4 tracestate, 5 CloudEvents attributes, 6 order key (UTF-8);
 *     unknown tags are skipped</td></tr>
 * <tr><td></td><td>4 + n</td><td>payload: length, bytes (the exact bytes published)</td></tr>
 * </table>
 * <p>While the writer appends to a segment, up to 256 KiB of zeros follow its last record (written
 * ahead so a force need not grow the file); they are cut when the writer leaves the segment, and
 * zeros a crash left after the last record are cut at open. A zero magic starts no record.
 * <p>A record of version 1 (magic {@code 0x4A534B52}, "JSKR") has the same prefix, sequence and
 * queued-at, then the msg id as a 16-byte UUID (most then least significant 64 bits), the kind,
 * the four strings and the payload, without attributes. Both are read; only version 2 is written,
 * and never into a segment created by version 1 code (the writer always starts a new segment
 * when it opens a queue). A segment whose header has a version above 2 makes {@link SegmentedQueue#open}
 * refuse the whole directory before changing anything.
 * <p>Sequence numbers within a segment lie in {@code [first, first + 65536)} and grow with the
 * offset. A segment rolls at 64 MiB or 65 536 sequence numbers.
 */
final class RecordCodec {
    static final int SEGMENT_MAGIC = 0x4A534B53; // "JSKS"
    /** Records of format version 1: a 16-byte UUID msg id. Still read; never written. */
    static final int RECORD_MAGIC_V1 = 0x4A534B52; // "JSKR"
    /** Records of format version 2: a text msg id and an attributes area. */
    static final int RECORD_MAGIC = 0x4A534B32; // "JSK2"
    /** The version this code writes in segment headers. */
    static final short FORMAT_VERSION = 2;
    /** The oldest version this code reads. */
    static final short OLDEST_READABLE_VERSION = 1;
    static final int SEGMENT_HEADER_BYTES = 16;
    /** magic + body length + CRC32C. */
    static final int RECORD_PREFIX_BYTES = 12;
    /** v1: seq + queued-at + UUID msg id + kind + four string lengths + payload length. */
    static final int MIN_BODY_BYTES_V1 = 8 + 8 + 16 + 1 + 4 * 2 + 4;
    /** v2: seq + queued-at + kind + msg id length and at least one byte + four string lengths + attributes length + payload length. */
    static final int MIN_BODY_BYTES = 8 + 8 + 1 + 1 + 1 + 4 * 2 + 2 + 4;
    /** Larger than any record we write (payloads are capped at 4 MiB upstream); bounds the scan. */
    static final int MAX_RECORD_BODY_BYTES = 64 * 1024 * 1024;
    /** Attribute tag: how often the entry was replayed from the failed store (4-byte count). */
    static final int ATTR_REPLAYS = 1;
    /** Attribute tag: the subject resolved from a {@code SUBJECT} template at enqueue (UTF-8). */
    static final int ATTR_SUBJECT = 2;
    /** Attribute tag: the W3C {@code traceparent} the event arrived with (UTF-8, ASCII in practice). */
    static final int ATTR_TRACEPARENT = 3;
    /** Attribute tag: the W3C {@code tracestate} that came with it (UTF-8, ASCII in practice). */
    static final int ATTR_TRACESTATE = 4;
    /** Attribute tag: the CloudEvents attributes its message carries, a JSON object of strings (UTF-8). */
    static final int ATTR_CLOUD_EVENT = 5;
    /** Attribute tag: the object an ordered target keeps the order of (UTF-8). */
    static final int ATTR_ORDER_KEY = 6;
    /** Bytes the replays attribute takes: tag, length, count. */
    private static final int REPLAYS_ATTRIBUTE_BYTES = 1 + 2 + 4;
    /** Tag and length in front of each attribute's bytes. */
    private static final int ATTRIBUTE_HEADER_BYTES = 1 + 2;

    private RecordCodec() {
    }

    static ByteBuffer segmentHeader(long firstSeq) {
        ByteBuffer b = ByteBuffer.allocate(SEGMENT_HEADER_BYTES);
        b.putInt(SEGMENT_MAGIC).putShort(FORMAT_VERSION).putShort((short) SEGMENT_HEADER_BYTES).putLong(firstSeq);
        return b.flip();
    }

    /** Whether a segment header's version is one this code reads. */
    static boolean readable(short version) {
        return version >= OLDEST_READABLE_VERSION && version <= FORMAT_VERSION;
    }

    /** Size of the whole record (prefix included) for this entry. */
    static int recordSize(String msgId, EventMetadata m, byte[] payload, EntryAttributes attributes) {
        return RECORD_PREFIX_BYTES + MIN_BODY_BYTES - 1 + msgId.length() + utf8(m.bucket()).length
            + utf8(m.object()).length + utf8(m.eventName()).length + utf8(m.contentType()).length
            + attributesBytes(attributes) + payload.length;
    }

    /** Size of the attributes area's content (its 2-byte length not included). */
    private static int attributesBytes(EntryAttributes a) {
        return (a.replays() > 0 ? REPLAYS_ATTRIBUTE_BYTES : 0) + textAttributeBytes(a.subject())
            + textAttributeBytes(a.traceparent()) + textAttributeBytes(a.tracestate())
            + textAttributeBytes(a.cloudEvent()) + textAttributeBytes(a.orderKey());
    }

    private static int textAttributeBytes(Optional<String> value) {
        return value.map(v -> ATTRIBUTE_HEADER_BYTES + utf8(v).length).orElse(0);
    }

    /**
     * Appends one version 2 record to {@code out}, which must have room for {@link #recordSize};
     * {@code msgId} must have passed {@link MsgIds#check}.
     */
    static void encode(ByteBuffer out, long seq, String msgId, long queuedAtMs, EventMetadata m, byte[] payload,
                       EntryAttributes attributes) {
        int start = out.position();
        out.putInt(RECORD_MAGIC).putInt(0).putInt(0);
        int bodyStart = out.position();
        out.putLong(seq).putLong(queuedAtMs);
        out.put((byte) m.kind().ordinal());
        out.put((byte) msgId.length());
        for (int i = 0; i < msgId.length(); i++) {
            out.put((byte) msgId.charAt(i));
        }
        putString(out, m.bucket());
        putString(out, m.object());
        putString(out, m.eventName());
        putString(out, m.contentType());
        out.putShort((short) attributesBytes(attributes));
        if (attributes.replays() > 0) {
            out.put((byte) ATTR_REPLAYS).putShort((short) 4).putInt(attributes.replays());
        }
        putAttribute(out, ATTR_SUBJECT, attributes.subject());
        putAttribute(out, ATTR_TRACEPARENT, attributes.traceparent());
        putAttribute(out, ATTR_TRACESTATE, attributes.tracestate());
        putAttribute(out, ATTR_CLOUD_EVENT, attributes.cloudEvent());
        putAttribute(out, ATTR_ORDER_KEY, attributes.orderKey());
        out.putInt(payload.length).put(payload);
        int bodyLength = out.position() - bodyStart;
        CRC32C crc = new CRC32C();
        crc.update(out.array(), out.arrayOffset() + bodyStart, bodyLength);
        out.putInt(start + 4, bodyLength).putInt(start + 8, (int) crc.getValue());
    }

    /**
     * The body length of a valid record (either version) starting at {@code pos}, or -1 when there
     * is no complete, CRC-valid record there. Never throws for garbage.
     */
    static int validBodyLength(ByteBuffer segment, int pos) {
        if (pos < 0 || pos + RECORD_PREFIX_BYTES > segment.limit()) {
            return -1;
        }
        int min = minBodyBytes(segment.getInt(pos));
        if (min < 0) {
            return -1;
        }
        int len = segment.getInt(pos + 4);
        if (len < min || len > MAX_RECORD_BODY_BYTES || (long) pos + RECORD_PREFIX_BYTES + len > segment.limit()) {
            return -1;
        }
        CRC32C crc = new CRC32C();
        crc.update(segment.slice(pos + RECORD_PREFIX_BYTES, len));
        return (int) crc.getValue() == segment.getInt(pos + 8) ? len : -1;
    }

    /** The smallest body a record with this magic can have, or -1 for a magic that starts no record. */
    static int minBodyBytes(int magic) {
        return magic == RECORD_MAGIC ? MIN_BODY_BYTES : magic == RECORD_MAGIC_V1 ? MIN_BODY_BYTES_V1 : -1;
    }

    /** Both versions keep the sequence and the queued-at time first. */
    static long seqAt(ByteBuffer record, int pos) {
        return record.getLong(pos + RECORD_PREFIX_BYTES);
    }

    static long queuedAtAt(ByteBuffer record, int pos) {
        return record.getLong(pos + RECORD_PREFIX_BYTES + 8);
    }

    /** A decoded record; the payload is only copied when asked for. */
    record Decoded(long seq, String msgId, Instant queuedAt, EventMetadata metadata, int payloadOffset, int payloadLength,
                   EntryAttributes attributes) {
        QueuedEntry entry() {
            return new QueuedEntry(seq, msgId, queuedAt, metadata, payloadLength, attributes);
        }
    }

    /**
     * Decodes the header fields of the record at {@code pos}, of either version (CRC not checked here).
     *
     * @throws BufferUnderflowException when {@code buf} ends inside the header
     * @throws IllegalArgumentException when a field is out of its range
     */
    static Decoded decodeHeader(ByteBuffer buf, int pos) {
        ByteBuffer b = buf.duplicate();
        int magic = b.getInt(pos);
        b.position(pos + RECORD_PREFIX_BYTES);
        long seq = b.getLong();
        long queuedAt = b.getLong();
        String msgId;
        TargetKind kind;
        if (magic == RECORD_MAGIC_V1) {
            msgId = new UUID(b.getLong(), b.getLong()).toString();
            kind = kind(b.get(), seq);
        } else if (magic == RECORD_MAGIC) {
            kind = kind(b.get(), seq);
            int idLength = Byte.toUnsignedInt(b.get());
            byte[] id = new byte[idLength];
            b.get(id);
            msgId = new String(id, StandardCharsets.US_ASCII);
            MsgIds.check(msgId);
        } else {
            throw new IllegalArgumentException("no record at " + pos);
        }
        EventMetadata meta = new EventMetadata(kind, getString(b), getString(b), getString(b), getString(b));
        EntryAttributes attributes = magic == RECORD_MAGIC ? attributes(b, seq) : EntryAttributes.NONE;
        int payloadLength = b.getInt();
        return new Decoded(seq, msgId, Instant.ofEpochMilli(queuedAt), meta, b.position(), payloadLength, attributes);
    }

    private static TargetKind kind(byte ordinal, long seq) {
        TargetKind[] kinds = TargetKind.values();
        if (ordinal < 0 || ordinal >= kinds.length) {
            throw new IllegalArgumentException("unknown kind " + ordinal + " in record " + seq);
        }
        return kinds[ordinal];
    }

    /*
     * The attributes area (version 2): entries of a 1-byte tag, a 2-byte length and that many
     * bytes, filling the area exactly. Tag 1 is the replay count (4 bytes), 2 the entry's subject,
     * 3 and 4 its traceparent and tracestate, 5 its CloudEvents attributes, 6 its order key (text). A reader skips tags it does not know, so a
     * later release may add optional attributes without a new format version (one whose meaning
     * must not be ignored needs a new version).
     */
    private static EntryAttributes attributes(ByteBuffer b, long seq) {
        int length = Short.toUnsignedInt(b.getShort());
        int end = b.position() + length;
        int replays = 0;
        Optional<String> subject = Optional.empty();
        Optional<String> traceparent = Optional.empty();
        Optional<String> tracestate = Optional.empty();
        Optional<String> cloudEvent = Optional.empty();
        Optional<String> orderKey = Optional.empty();
        while (b.position() < end) {
            int tag = Byte.toUnsignedInt(b.get());
            int n = Short.toUnsignedInt(b.getShort());
            if (tag == ATTR_REPLAYS && n == 4) {
                replays = b.getInt();
                if (replays < 0) {
                    throw new IllegalArgumentException("negative replay count in record " + seq);
                }
            } else if (tag == ATTR_SUBJECT) {
                subject = Optional.of(text(b, n));
            } else if (tag == ATTR_TRACEPARENT) {
                traceparent = Optional.of(text(b, n));
            } else if (tag == ATTR_TRACESTATE) {
                tracestate = Optional.of(text(b, n));
            } else if (tag == ATTR_CLOUD_EVENT) {
                cloudEvent = Optional.of(text(b, n));
            } else if (tag == ATTR_ORDER_KEY) {
                orderKey = Optional.of(text(b, n));
            } else {
                b.position(b.position() + n);
            }
        }
        if (b.position() != end) {
            throw new IllegalArgumentException("attributes overrun their area in record " + seq);
        }
        return new EntryAttributes(replays, subject, traceparent, tracestate, cloudEvent, orderKey);
    }

    private static String text(ByteBuffer b, int n) {
        byte[] bytes = new byte[n];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static void putAttribute(ByteBuffer out, int tag, Optional<String> value) {
        if (value.isPresent()) {
            byte[] bytes = utf8(value.get());
            out.put((byte) tag).putShort((short) bytes.length).put(bytes);
        }
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
     * lengths, or a body (attributes included) over {@link #MAX_RECORD_BODY_BYTES}, which recovery and
     * reads would take for damage.
     */
    static void checkFits(EventMetadata m, byte[] payload, EntryAttributes attributes) {
        Objects.requireNonNull(m, "metadata");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(attributes, "attributes");
        long body = MIN_BODY_BYTES + MsgIds.MAX_BYTES + (long) payload.length + attributesBytes(attributes)
            + metadataBytes(m);
        if (body > MAX_RECORD_BODY_BYTES) {
            throw new IllegalArgumentException(
                "queue record of " + body + " bytes exceeds the " + MAX_RECORD_BODY_BYTES + "-byte limit");
        }
    }

    /**
     * The bytes bucket, object, event name and content type take in a record.
     *
     * @throws IllegalArgumentException when one of them is longer than its 16-bit length allows
     */
    static long metadataBytes(EventMetadata m) {
        long bytes = 0;
        for (String s : new String[] {m.bucket(), m.object(), m.eventName(), m.contentType()}) {
            int n = utf8(s).length;
            if (n > 0xFFFF) {
                throw new IllegalArgumentException("bucket, object, event name or content type longer than 65535 bytes");
            }
            bytes += n;
        }
        return bytes;
    }
}

package dev.jetsink.internal.event;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import dev.jetsink.internal.config.TargetKind;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes one record or entry as its envelope's {@code data} while {@link OnePass} reads it: every
 * value as the tree path would write it (numbers by the type the parser gives them, decimals
 * exact), audit credentials masked, the fields the envelope and metadata need kept as they pass,
 * and the layout the canonical digest is hashed from ({@link WrittenLayout}). Gives the pass up
 * ({@link OnePass.GiveUp}) on a mistyped or missing field jetsink reads, or a name twice in an
 * object: the tree path has the words for those.
 */
final class DataWriter {

    /** Where in a record or entry a member stands, as far as jetsink reads it. */
    enum Spot { RECORD, S3, BUCKET, OBJECT, RESPONSE, ENTRY, API, HEADERS, QUERY, OTHER }

    /**
     * Member names written before, encoded once: the parser hands the same names over and over
     * (every record of a sender has the same members). Bounded, since names come from senders.
     */
    private static final ConcurrentHashMap<String, SerializedString> NAMES = new ConcurrentHashMap<>();
    private static final int MAX_NAMES = 4096;
    /**
     * The longest string (in bytes, so in characters at most) surely written in one piece: Jackson's
     * generator writes strings in pieces of an eighth of its 8000-byte buffer.
     */
    private static final int WHOLE = 512;

    /** The envelope's bytes after {@code data}: {@code }]}}. */
    private static final int ENVELOPE_TAIL = 3;

    private final JsonParser parser;
    private final byte[] body;
    private final Spot spot;
    private final Written out = new Written();
    private final JsonGenerator gen;
    private final WrittenLayout root;
    /** The string of each field met (an object field: "" once met), null while not met or JSON null. */
    private final String[] found = new String[ReadField.ALL.length];
    /** A time written as epoch milliseconds, in RFC 3339; null when not met so. */
    private String millisTime;
    /** Whether a field the formats read had a value the pass cannot put as the tree path would (a number). */
    private boolean formatsFromTree;
    /** Where the key's value was written: from its name's end, to the value's end. */
    private int keyFrom = -1;
    private int keyTo = -1;

    /**
     * Starts the object the parser stands at the start of; {@code spot} is RECORD or ENTRY; the
     * parser reads {@code body}.
     */
    DataWriter(JsonParser parser, byte[] body, Spot spot) throws IOException {
        this.parser = parser;
        this.body = body;
        this.spot = spot;
        this.gen = Json.WRITER.createGenerator(out, JsonEncoding.UTF8);
        gen.writeStartObject();
        this.root = new WrittenLayout(true, at() - 1);
    }

    /** One member of the record or entry; the parser stands at its value. */
    void member(String name, JsonToken value) throws IOException {
        member(root, spot, name, value);
    }

    /**
     * Drops what was written: the object was not a record after all. Closing the generator hands
     * its buffers back for the next one to use (Jackson keeps one set per thread).
     */
    void abandon() throws IOException {
        gen.close();
    }

    /** The event; the parser has read the record's or entry's closing brace. */
    OutboundEvent finish() throws IOException {
        gen.writeEndObject();
        OnePass.GiveUp.unless(root.close(at()));
        gen.close();
        int dataEnd = out.size();
        MessageDigest sha = CanonicalJson.sha256();
        root.digest(out.bytes(), sha);
        EventMetadata metadata = spot == Spot.RECORD ? recordMetadata() : entryMetadata();
        String objectName = spot == Spot.RECORD ? found[ReadField.KEY.ordinal()] : metadata.object();
        byte[] envelope = envelope(metadata, objectName, dataEnd);
        if (formatsFromTree) {
            return new OutboundEvent(metadata, envelope, sha.digest());
        }
        return new OutboundEvent(metadata, envelope, sha.digest(), formatFields(envelope.length - ENVELOPE_TAIL - dataEnd,
            dataEnd));
    }

    /** What the opt-in formats read, with {@code data} at {@code [from, from + length)} of the envelope. */
    private FormatFields formatFields(int from, int length) {
        byte[] data = out.bytes();
        int keyStart = keyFrom;
        if (keyStart >= 0 && data[keyStart] == ':') {
            keyStart++; // the generator writes a name's colon with its value
        }
        Optional<String> time = millisTime != null ? Optional.of(millisTime)
            : Optional.ofNullable(spot == Spot.RECORD ? found[ReadField.EVENT_TIME.ordinal()]
                : found[ReadField.ENTRY_TIME.ordinal()]).flatMap(FormatFields::time);
        if (spot == Spot.RECORD) {
            return new FormatFields(from, from + length, keyStart, keyTo, text(ReadField.REQUEST_ID), text(ReadField.ID_2),
                text(ReadField.EVENT_SOURCE), text(ReadField.AWS_REGION), text(ReadField.BUCKET_NAME), text(ReadField.EVENT_NAME),
                text(ReadField.KEY), time);
        }
        return new FormatFields(from, from + length, -1, -1, text(ReadField.ENTRY_REQUEST_ID), "",
            text(ReadField.DEPLOYMENT_ID), text(ReadField.REQUEST_HOST), text(ReadField.API_BUCKET), text(ReadField.API_NAME),
            text(ReadField.API_OBJECT), time);
    }

    private String text(ReadField field) {
        String value = found[field.ordinal()];
        return value == null ? "" : value;
    }

    /** The notify metadata, once the required fields are known to be there (else the tree path says which is not). */
    private EventMetadata recordMetadata() {
        String eventName = required(ReadField.EVENT_NAME);
        OnePass.GiveUp.unless(found[ReadField.S3.ordinal()] != null && found[ReadField.BUCKET.ordinal()] != null
            && found[ReadField.OBJECT.ordinal()] != null);
        String bucket = required(ReadField.BUCKET_NAME);
        String key = required(ReadField.KEY);
        String source = found[ReadField.EVENT_SOURCE.ordinal()];
        KeyEncoding encoding = source == null ? KeyEncoding.FORM : KeyEncoding.ofSource(source);
        return new EventMetadata(TargetKind.NOTIFY, bucket, encoding.decode(key), eventName,
            found[ReadField.CONTENT_TYPE.ordinal()]);
    }

    private EventMetadata entryMetadata() {
        return new EventMetadata(TargetKind.AUDIT, found[ReadField.API_BUCKET.ordinal()], found[ReadField.API_NAME.ordinal()],
            found[ReadField.EVENT.ordinal()], "");
    }

    private String required(ReadField field) {
        String value = found[field.ordinal()];
        OnePass.GiveUp.unless(value != null && !value.isEmpty());
        return value;
    }

    /**
     * The envelope {@link Envelopes} writes, around the data already written: its head is written
     * after the data with a one-byte placeholder for the data, and the two are joined once.
     */
    private byte[] envelope(EventMetadata m, String objectName, int dataEnd) {
        int headStart = out.size();
        int[] dataAt = new int[1];
        JsonBody.writeTo(out, g -> {
            g.writeStartObject();
            g.writeStringField("EventName", m.eventName());
            g.writeStringField("Key", m.bucket() + "/" + m.object());
            g.writeArrayFieldStart("Records");
            g.writeStartObject();
            g.writeStringField("object_name", objectName);
            g.writeStringField("bucket_name", m.bucket());
            g.writeStringField("event_name", m.eventName());
            g.writeFieldName("data");
            dataAt[0] = out.size() + g.getOutputBuffered();
            g.writeNumber(0);
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
        });
        byte[] b = out.bytes();
        int head = dataAt[0] - headStart;
        int tail = out.size() - dataAt[0] - 2; // after ":0"
        byte[] envelope = new byte[head + 1 + dataEnd + tail];
        assert tail == ENVELOPE_TAIL;
        System.arraycopy(b, headStart, envelope, 0, head);
        envelope[head] = ':';
        System.arraycopy(b, 0, envelope, head + 1, dataEnd);
        System.arraycopy(b, dataAt[0] + 2, envelope, head + 1 + dataEnd, tail);
        return envelope;
    }

    private void member(WrittenLayout in, Spot where, String name, JsonToken value) throws IOException {
        int start = at();
        writeName(name);
        WrittenLayout inner = null;
        if (where == Spot.HEADERS && Redaction.masksHeader(name) || where == Spot.QUERY && Redaction.masksQuery(name)) {
            gen.writeString(Redaction.MASK);
            OnePass.skipValue(parser);
        } else {
            ReadField field = where == Spot.OTHER ? null : ReadField.at(where, name);
            boolean opens = field != null && value != JsonToken.VALUE_NULL && keep(field, value);
            int valueFrom = at();
            inner = value(value, opens ? field.opens : Spot.OTHER);
            if (field == ReadField.KEY) {
                keyFrom = valueFrom;
                keyTo = at();
            }
        }
        in.add(name, start, at(), inner);
    }

    /** Keeps the value of {@code field}; true when it is an object to read the members of. */
    private boolean keep(ReadField field, JsonToken value) throws IOException {
        if (field.opens != null) {
            OnePass.GiveUp.unless(value == JsonToken.START_OBJECT || field.anyType);
            found[field.ordinal()] = "";
            return value == JsonToken.START_OBJECT;
        }
        if (value == JsonToken.VALUE_STRING) {
            found[field.ordinal()] = parser.getText();
            return false;
        }
        // eventSource of another type only means "not Ceph"; the formats read any type as its text
        OnePass.GiveUp.unless(field.anyType);
        if (field.isTime()) {
            if (value == JsonToken.VALUE_NUMBER_INT) {
                JsonParser.NumberType type = parser.getNumberType();
                if (type == JsonParser.NumberType.BIG_INTEGER) {
                    formatsFromTree = true; // the tree keeps only its low 64 bits: its words, not ours
                } else {
                    millisTime = FormatFields.epochMillis(parser.getLongValue());
                }
            } else if (value == JsonToken.VALUE_NUMBER_FLOAT) {
                formatsFromTree = true; // written back as a decimal, 1.7e12 reads as whole milliseconds there
            }
        } else if (value == JsonToken.VALUE_TRUE || value == JsonToken.VALUE_FALSE) {
            found[field.ordinal()] = value == JsonToken.VALUE_TRUE ? "true" : "false";
        } else if (value.isNumeric()) {
            formatsFromTree = true;
        }
        return false;
    }

    /** Writes the value the parser stands at; its layout when it is an object or array. */
    private WrittenLayout value(JsonToken t, Spot where) throws IOException {
        switch (t) {
            case START_OBJECT -> {
                gen.writeStartObject();
                WrittenLayout object = new WrittenLayout(true, at() - 1);
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    member(object, where, name, parser.nextToken());
                }
                gen.writeEndObject();
                OnePass.GiveUp.unless(object.close(at()));
                return object;
            }
            case START_ARRAY -> {
                gen.writeStartArray();
                WrittenLayout array = new WrittenLayout(false, at() - 1);
                JsonToken e;
                while ((e = parser.nextToken()) != JsonToken.END_ARRAY) {
                    int start = at();
                    WrittenLayout inner = value(e, Spot.OTHER);
                    array.add(null, start, at(), inner);
                }
                gen.writeEndArray();
                array.close(at());
                return array;
            }
            case VALUE_STRING -> string();
            case VALUE_NUMBER_INT -> {
                switch (parser.getNumberType()) {
                    case INT -> gen.writeNumber(parser.getIntValue());
                    case LONG -> gen.writeNumber(parser.getLongValue());
                    default -> gen.writeNumber(parser.getBigIntegerValue());
                }
            }
            case VALUE_NUMBER_FLOAT -> gen.writeNumber(parser.getDecimalValue());
            case VALUE_TRUE -> gen.writeBoolean(true);
            case VALUE_FALSE -> gen.writeBoolean(false);
            case VALUE_NULL -> gen.writeNull();
            default -> throw new IllegalStateException("unexpected JSON token " + t);
        }
        return null;
    }

    /**
     * The string the parser stands at, written as the tree path writes it. A string without a
     * backslash is copied from the body as it stands: UTF-8 is checked up front, control
     * characters cannot stand unescaped, and the generator escapes nothing else, so it would write
     * those very bytes — as long as it writes the string in one piece. It cuts a long string
     * (about a thousand characters) into pieces and escapes the halves of an astral character that
     * a cut splits (found by the fuzzer), so a string of more than {@value #WHOLE} bytes with an
     * astral character goes through the generator like any string with an escape.
     */
    private void string() throws IOException {
        long quote = parser.currentTokenLocation().getByteOffset();
        if (quote >= 0 && quote < body.length && body[(int) quote] == '"') {
            int from = (int) quote + 1;
            int at = from;
            boolean astral = false;
            byte b;
            while (at < body.length && (b = body[at]) != '"' && b != '\\') {
                astral |= (b & 0xF8) == 0xF0; // the lead byte of a four-byte character
                at++;
            }
            if (at < body.length && body[at] == '"' && (at - from <= WHOLE || !astral)) {
                gen.writeRawUTF8String(body, from, at - from);
                return;
            }
        }
        gen.writeString(parser.getText());
    }

    private void writeName(String name) throws IOException {
        if (name.length() > WHOLE) {
            gen.writeFieldName(name); // cut in pieces by the generator, as the tree path's is
            return;
        }
        gen.writeFieldName(encodedName(name));
    }

    private static SerializableString encodedName(String name) {
        SerializedString encoded = NAMES.get(name);
        if (encoded == null) {
            encoded = new SerializedString(name);
            if (NAMES.size() < MAX_NAMES) {
                NAMES.putIfAbsent(name, encoded);
            }
        }
        return encoded;
    }

    /** Where the next byte will be written. */
    private int at() {
        return out.size() + gen.getOutputBuffered();
    }

    /** The bytes written so far, readable in place (a ByteArrayOutputStream would lock on every call). */
    private static final class Written extends OutputStream {
        private byte[] buf = new byte[512];
        private int count;

        @Override
        public void write(int b) {
            ensure(1);
            buf[count++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, buf, count, len);
            count += len;
        }

        private void ensure(int more) {
            if (count + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, count + more));
            }
        }

        int size() {
            return count;
        }

        byte[] bytes() {
            return buf;
        }
    }
}

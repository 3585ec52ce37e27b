package dev.jetsink.internal.event;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.event.MalformedEventException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The one place that knows Jackson's configuration — parse limits, number handling, the checks a
 * body passes before any JSON is read, error locations — so they cannot drift between notify and
 * audit ({@link BodyStream} walks bodies with it) or between reading and writing.
 */
public final class JsonBody {
    /** Largest body the parser accepts; the HTTP ingest answers 413 above this before parsing. */
    static final int MAX_EVENT_BODY_BYTES = 4 * 1024 * 1024;
    /** Deepest nesting accepted; real records nest about 5 levels, audit entries about 4. */
    static final int MAX_DEPTH = 64;
    static final int MAX_NAME_CHARS = 64 * 1024;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;

    private JsonBody() {
    }

    /**
     * The checks every body passes before any JSON is read: its size, UTF-8 only, no NUL, no
     * escaped half of a surrogate pair.
     */
    static void checkBytes(byte[] body) throws MalformedEventException {
        if (body.length > MAX_EVENT_BODY_BYTES) {
            throw new MalformedEventException("body is larger than " + MAX_EVENT_BODY_BYTES + " bytes");
        }
        checkUtf8(body);
        checkSurrogateEscapes(body);
    }

    /*
     * UTF-8 cannot carry a lone surrogate, but a JSON escape can ("\ude0d"). Jackson reads it into
     * the string; written out again as UTF-8 it cannot be said, so the published envelope would
     * differ from the event it was read as (its key, its digest). Such a body is refused like any
     * other text that is not Unicode (found by EventParserFuzzTest). A pair of escapes that makes
     * one character is fine.
     */
    private static void checkSurrogateEscapes(byte[] b) throws MalformedEventException {
        int i = 0;
        while (i < b.length - 1) {
            if (i + 8 <= b.length) {
                // eight bytes without a backslash hold no escape's start: step over them at once
                long x = (long) LONGS.get(b, i) ^ BACKSLASHES;
                if (((x - 0x0101010101010101L) & ~x & 0x8080808080808080L) == 0) {
                    i += 8;
                    continue;
                }
            }
            if (b[i] != '\\') {
                i++;
                continue;
            }
            if (b[i + 1] != 'u') {
                i += 2; // the escaped character, a backslash among them, is no escape's start
                continue;
            }
            int c = hex4(b, i + 2);
            if (c >= 0xD800 && c <= 0xDBFF && i + 11 < b.length && b[i + 6] == '\\' && b[i + 7] == 'u') {
                int low = hex4(b, i + 8);
                if (low >= 0xDC00 && low <= 0xDFFF) {
                    i += 12;
                    continue;
                }
            }
            if (c >= 0xD800 && c <= 0xDFFF) {
                throw new MalformedEventException(String.format(
                    "escape \\u%04X at byte %d is half of a surrogate pair, not a character", c, i + 1));
            }
            i += 6;
        }
    }

    /** The value of four hex digits at {@code at}, or -1. */
    private static int hex4(byte[] b, int at) {
        if (at + 4 > b.length) {
            return -1;
        }
        int v = 0;
        for (int k = at; k < at + 4; k++) {
            int d = Character.digit(b[k], 16);
            if (d < 0) {
                return -1;
            }
            v = v * 16 + d;
        }
        return v;
    }

    /** Compact UTF-8 JSON of whatever {@code writer} emits. */
    static byte[] write(GeneratorWork writer) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        writeTo(out, writer);
        return out.toByteArray();
    }

    /** Compact UTF-8 JSON of whatever {@code writer} emits, into {@code out}. */
    static void writeTo(OutputStream out, GeneratorWork writer) {
        try (JsonGenerator gen = Json.WRITER.createGenerator(out, JsonEncoding.UTF8)) {
            writer.writeTo(gen);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes {@code node} with the generator's own calls, as {@code writeTree} would but without
     * the serializer lookups per value; object members in their order, or sorted by name
     * ({@code String} order) for the canonical form. Values of kinds other than the common ones
     * (decimals, big integers, binary) still go through {@code writeTree}, so the bytes are the same.
     */
    static void writeNode(JsonGenerator gen, JsonNode node, boolean sortMembers) throws IOException {
        switch (node.getNodeType()) {
            case OBJECT -> {
                gen.writeStartObject();
                if (sortMembers && node.size() > 1) {
                    String[] names = new String[node.size()];
                    int i = 0;
                    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                        names[i++] = it.next();
                    }
                    Arrays.sort(names);
                    for (String name : names) {
                        gen.writeFieldName(name);
                        writeNode(gen, node.get(name), true);
                    }
                } else {
                    for (Map.Entry<String, JsonNode> member : node.properties()) {
                        gen.writeFieldName(member.getKey());
                        writeNode(gen, member.getValue(), sortMembers);
                    }
                }
                gen.writeEndObject();
            }
            case ARRAY -> {
                gen.writeStartArray();
                for (JsonNode element : node) {
                    writeNode(gen, element, sortMembers);
                }
                gen.writeEndArray();
            }
            case STRING -> gen.writeString(node.textValue());
            case BOOLEAN -> gen.writeBoolean(node.booleanValue());
            case NULL -> gen.writeNull();
            default -> {
                if (node.isInt()) {
                    gen.writeNumber(node.intValue());
                } else if (node.isLong()) {
                    gen.writeNumber(node.longValue());
                } else {
                    gen.writeTree(node);
                }
            }
        }
    }

    /** What {@link #write} runs against a generator. */
    @FunctionalInterface
    interface GeneratorWork {
        void writeTo(JsonGenerator gen) throws IOException;
    }

    /*
     * Jackson decodes most bad UTF-8 itself but not all of it (encoded surrogates, bytes outside
     * strings), and it guesses UTF-16/32 from zero bytes; checking up front with a strict decoder
     * and refusing NUL (never legal raw in JSON) makes "UTF-8 only" a fact, not a hope.
     */
    private static void checkUtf8(byte[] body) throws MalformedEventException {
        // Webhook bodies are nearly always ASCII: one pass, eight bytes at a time, settles them
        // without a decoder.
        int firstNonAscii = -1;
        int i = 0;
        for (; i + 8 <= body.length; i += 8) {
            long w = (long) LONGS.get(body, i);
            // a byte is NUL or has its high bit set: look at these eight one by one
            if ((((w - 0x0101010101010101L) | w) & 0x8080808080808080L) != 0) {
                firstNonAscii = checkBytes(body, i, i + 8, firstNonAscii);
            }
        }
        firstNonAscii = checkBytes(body, i, body.length, firstNonAscii);
        if (firstNonAscii < 0) {
            return;
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(body, firstNonAscii, body.length - firstNonAscii);
        CharBuffer scratch = CharBuffer.allocate(1024);
        while (true) {
            CoderResult result = decoder.decode(in, scratch, true);
            if (result.isError()) {
                throw new MalformedEventException("body is not valid UTF-8 at byte offset " + in.position());
            }
            if (result.isUnderflow()) {
                break;
            }
            scratch.clear();
        }
        scratch.clear();
        if (decoder.flush(scratch).isError()) {
            throw new MalformedEventException("body is not valid UTF-8 at byte offset " + body.length);
        }
    }

    /** Refuses a NUL in {@code body[from, to)}; the first non-ASCII offset so far, or -1. */
    private static int checkBytes(byte[] body, int from, int to, int firstNonAscii) throws MalformedEventException {
        int first = firstNonAscii;
        for (int i = from; i < to; i++) {
            byte b = body[i];
            if (b == 0) {
                throw new MalformedEventException("not valid JSON: NUL byte at byte offset " + i);
            }
            if (b < 0 && first < 0) {
                first = i;
            }
        }
        return first;
    }

    static MalformedEventException located(JsonProcessingException e, JsonParser parser, String what) {
        JsonLocation at = e.getLocation() != null ? e.getLocation()
                : parser != null ? parser.currentLocation() : null;
        if (at == null || at.getLineNr() < 1) {
            return new MalformedEventException(what);
        }
        return new MalformedEventException("line " + at.getLineNr() + ": " + what + " at column " + at.getColumnNr());
    }

    /** {@code what}, located where {@code parser} stands. */
    static MalformedEventException located(JsonParser parser, String what) {
        JsonLocation at = parser != null ? parser.currentTokenLocation() : null;
        if (at == null || at.getLineNr() < 1) {
            return new MalformedEventException(what);
        }
        return new MalformedEventException("line " + at.getLineNr() + ": " + what + " at column " + at.getColumnNr());
    }

    /* Jackson reports which limit broke only in prose; map it to our own words and numbers. */
    static String limitBroken(StreamConstraintsException e) {
        String m = String.valueOf(e.getOriginalMessage());
        if (m.contains("nesting depth")) {
            return "nesting deeper than " + MAX_DEPTH + " levels";
        }
        if (m.contains("String value length")) {
            return "string longer than " + MAX_EVENT_BODY_BYTES + " characters";
        }
        if (m.contains("Name length")) {
            return "field name longer than " + MAX_NAME_CHARS + " characters";
        }
        if (m.contains("Number value length")) {
            return "number with too many digits";
        }
        return "JSON exceeds the parser's limits";
    }

    static void closeQuietly(JsonParser parser) {
        if (parser != null) {
            try {
                parser.close();
            } catch (IOException ignored) {
                // Closing a parser over a byte array releases buffers only; nothing can be lost.
            }
        }
    }
}

package dev.jetsink.internal.event;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * jetsink's one JSON configuration, for core and server alike, handed out only in immutable
 * forms (readers, writers, the node factory): nobody can reconfigure it for everyone else.
 * Floats are read as exact decimals with their trailing zeros kept, so {@code "size":1.50} or a
 * 30-digit number a store adds later comes out as it went in, not rounded through a double; emoji
 * and other astral characters are written as plain UTF-8, not as surrogate escapes.
 *
 * <p>Two read limits, one configuration otherwise: {@link #BODIES} reads what senders post and is
 * bounded (size, nesting, names) before anything is parsed; {@link #READER} reads jetsink's own
 * files and answers with Jackson's default limits, since a failed record holds a whole event.
 */
public final class Json {

    private static final JsonMapper MAPPER = mapper(StreamReadConstraints.defaults());
    private static final JsonMapper BOUNDED = mapper(StreamReadConstraints.builder()
        .maxNestingDepth(JsonBody.MAX_DEPTH)
        .maxStringLength(JsonBody.MAX_EVENT_BODY_BYTES)
        .maxNameLength(JsonBody.MAX_NAME_CHARS)
        .maxDocumentLength(JsonBody.MAX_EVENT_BODY_BYTES)
        .build());

    /** Reads jetsink's own JSON: records, state files, admin answers. */
    public static final ObjectReader READER = MAPPER.reader();
    /** Reads what senders post, within the body limits. */
    public static final ObjectReader BODIES = BOUNDED.reader();
    /** Writes compact JSON. */
    public static final ObjectWriter WRITER = MAPPER.writer();
    /** Writes indented JSON, for people. */
    public static final ObjectWriter PRETTY = MAPPER.writerWithDefaultPrettyPrinter();
    /** Makes tree nodes. */
    public static final JsonNodeFactory NODES = MAPPER.getNodeFactory();

    private Json() {
    }

    private static JsonMapper mapper(StreamReadConstraints limits) {
        JsonFactory factory = JsonFactory.builder()
            .streamReadConstraints(limits)
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .build();
        return JsonMapper.builder(factory)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();
    }

    /** A new empty object node. */
    public static ObjectNode object() {
        return NODES.objectNode();
    }

    /** A parser of a sender's body, within the body limits. */
    public static JsonParser bodyParser(byte[] body) throws IOException {
        return BODIES.createParser(body);
    }

    /** {@code value} as {@code type}, through its JSON form (e.g. a record as a map). */
    public static <T> T convert(Object value, TypeReference<T> type) {
        return MAPPER.convertValue(value, type);
    }
}

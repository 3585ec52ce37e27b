package dev.jetsink.event;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The canonical form of a JSON value, the identity of an event (issue #12): object members sorted
 * by name (Java {@code String} order, UTF-16 code units), arrays in order, no insignificant
 * whitespace, strings in Jackson's minimal escaping, numbers with the digits they arrived with
 * ({@link JsonBody} keeps decimals exact, trailing zeros included). Two
 * records differing in any field differ here; the same record sent again, with its members in
 * another order or other whitespace, does not.
 */
public final class CanonicalJson {

    private CanonicalJson() {
    }

    /** SHA-256 of the canonical form of {@code value}. */
    public static byte[] sha256(JsonNode value) {
        return sha256().digest(bytes(value));
    }

    /** The canonical bytes of {@code value}. */
    public static byte[] bytes(JsonNode value) {
        return JsonBody.write(gen -> write(gen, value));
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    private static void write(JsonGenerator gen, JsonNode node) throws IOException {
        if (node.isObject()) {
            List<String> names = new ArrayList<>(node.size());
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                names.add(it.next());
            }
            names.sort(null);
            gen.writeStartObject();
            for (String name : names) {
                gen.writeFieldName(name);
                write(gen, node.get(name));
            }
            gen.writeEndObject();
        } else if (node.isArray()) {
            gen.writeStartArray();
            for (JsonNode element : node) {
                write(gen, element);
            }
            gen.writeEndArray();
        } else {
            gen.writeTree(node);
        }
    }
}

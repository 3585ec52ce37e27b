package dev.jetsink.internal.event;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * CloudEvents context attributes as jetsink keeps them (DESIGN.md "Formats"): names of lower-case
 * letters and digits, string values, in their order. Stored with a queue entry as a JSON object
 * and published as one {@code ce-<name>} header each, the value percent-encoded as the
 * CloudEvents NATS and HTTP bindings write it.
 */
public final class CloudEventAttributes {
    /** The header prefix of an attribute in binary mode, on HTTP and on NATS. */
    public static final String HEADER_PREFIX = "ce-";
    /** The only CloudEvents version jetsink reads and writes. */
    public static final String CLOUDEVENTS_VERSION = "1.0";
    /** Longest stored set of attributes, in UTF-8 bytes of its JSON; the queue record keeps no more. */
    public static final int MAX_JSON_BYTES = 16 * 1024;
    private static final int MAX_NAME_LENGTH = 20;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private CloudEventAttributes() {
    }

    /**
     * An unmodifiable copy in the same order.
     *
     * @throws IllegalArgumentException for a name that is not 1 to 20 lower-case letters or digits
     */
    public static Map<String, String> copy(Map<String, String> attributes) {
        if (attributes.isEmpty()) {
            return Map.of();
        }
        Map<String, String> copy = new LinkedHashMap<>();
        attributes.forEach((name, value) -> {
            checkName(name);
            copy.put(name, java.util.Objects.requireNonNull(value, name));
        });
        return Collections.unmodifiableMap(copy);
    }

    /** Why {@code name} cannot be an attribute's name, or empty when it can. */
    public static Optional<String> nameProblem(String name) {
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            return Optional.of("a CloudEvents attribute name has 1 to " + MAX_NAME_LENGTH + " characters: "
                + quote(name));
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9')) {
                return Optional.of("a CloudEvents attribute name is lower-case letters and digits: " + quote(name));
            }
        }
        return Optional.empty();
    }

    private static void checkName(String name) {
        nameProblem(name).ifPresent(p -> {
            throw new IllegalArgumentException(p);
        });
    }

    private static String quote(String s) {
        return "\"" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "\"";
    }

    /** The stored form: a JSON object of strings, or empty for no attribute. */
    public static Optional<String> toJson(Map<String, String> attributes) {
        if (attributes.isEmpty()) {
            return Optional.empty();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        JsonBody.writeTo(out, gen -> {
            gen.writeStartObject();
            for (Map.Entry<String, String> a : attributes.entrySet()) {
                gen.writeStringField(a.getKey(), a.getValue());
            }
            gen.writeEndObject();
        });
        String json = out.toString(StandardCharsets.UTF_8);
        if (json.getBytes(StandardCharsets.UTF_8).length > MAX_JSON_BYTES) {
            throw new IllegalArgumentException("CloudEvents attributes longer than "
                + MAX_JSON_BYTES + " bytes");
        }
        return Optional.of(json);
    }

    /** The attributes of the stored form; empty for none. */
    public static Map<String, String> fromJson(Optional<String> stored) {
        if (stored.isEmpty()) {
            return Map.of();
        }
        Map<String, String> attributes = new LinkedHashMap<>();
        try (JsonParser p = Json.READER.createParser(stored.get())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("stored CloudEvents attributes are not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                if (p.nextToken() != JsonToken.VALUE_STRING) {
                    throw new IllegalArgumentException("stored CloudEvents attribute " + name + " is not a string");
                }
                attributes.put(name, p.getText());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return copy(attributes);
    }

    /**
     * {@code value} as a header value: space, {@code "}, {@code %} and every byte of its UTF-8 form
     * outside printable ASCII written {@code %XX}.
     */
    public static String encodeHeaderValue(String value) {
        StringBuilder b = null;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c <= 0x20 || c >= 0x7F || c == '"' || c == '%') {
                b = new StringBuilder(value.length() + 16).append(value, 0, i);
                for (byte x : value.substring(i).getBytes(StandardCharsets.UTF_8)) {
                    int u = x & 0xFF;
                    if (u <= 0x20 || u >= 0x7F || u == '"' || u == '%') {
                        b.append('%').append(HEX[u >> 4]).append(HEX[u & 0xF]);
                    } else {
                        b.append((char) u);
                    }
                }
                break;
            }
        }
        return b == null ? value : b.toString();
    }

    /**
     * A header value as the attribute it carries: each {@code %XX} decoded, the bytes read as
     * UTF-8. A {@code %} not followed by two hex digits stays as it is.
     *
     * @throws IllegalArgumentException when the decoded bytes are not UTF-8
     */
    public static String decodeHeaderValue(String value) {
        if (value.indexOf('%') < 0) {
            return value;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(value.length());
        byte[] raw = value.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < raw.length; i++) {
            int hi = i + 2 < raw.length && raw[i] == '%' ? Character.digit(raw[i + 1], 16) : -1;
            int lo = hi >= 0 ? Character.digit(raw[i + 2], 16) : -1;
            if (lo >= 0) {
                bytes.write(hi * 16 + lo);
                i += 2;
            } else {
                bytes.write(raw[i]);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException("a percent-encoded CloudEvents header value is not UTF-8");
        }
    }
}

package dev.jetsink.internal.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.event.MalformedEventException;
import java.util.Optional;

/**
 * Typed reads of dotted paths in a JSON tree, with errors that name the path. JSON {@code null}
 * counts as absent: stores written in Go emit {@code null} for empty maps and pointers.
 */
public final class Fields {
    private Fields() {
    }

    /** The object at {@code path}, or empty when absent or null. */
    public static Optional<ObjectNode> object(JsonNode root, String path) throws MalformedEventException {
        JsonNode node = at(root, path);
        if (node == null) {
            return Optional.empty();
        }
        if (!node.isObject()) {
            throw new MalformedEventException(path + " must be an object");
        }
        return Optional.of((ObjectNode) node);
    }

    /** The string at {@code path}, or empty when absent or null. */
    public static Optional<String> string(JsonNode root, String path) throws MalformedEventException {
        JsonNode node = at(root, path);
        if (node == null) {
            return Optional.empty();
        }
        if (!node.isTextual()) {
            throw new MalformedEventException(path + " must be a string");
        }
        return Optional.of(node.textValue());
    }

    /** The non-empty string at {@code path}. */
    public static String requiredString(JsonNode root, String path) throws MalformedEventException {
        String value = string(root, path)
                .orElseThrow(() -> new MalformedEventException(path + " is required"));
        if (value.isEmpty()) {
            throw new MalformedEventException(path + " must not be empty");
        }
        return value;
    }

    /** The object at {@code path}; absent or null is an error. */
    public static ObjectNode requiredObject(JsonNode root, String path) throws MalformedEventException {
        return object(root, path).orElseThrow(() -> new MalformedEventException(path + " is required"));
    }

    /*
     * Walks the path one segment at a time, checking each parent is an object, so that
     * {"s3":"x"} reports "s3 must be an object" rather than "s3.bucket.name is required".
     */
    private static JsonNode at(JsonNode root, String path) throws MalformedEventException {
        JsonNode node = root;
        int start = 0;
        while (true) {
            int dot = path.indexOf('.', start);
            String name = dot < 0 ? path.substring(start) : path.substring(start, dot);
            JsonNode child = node.get(name);
            if (child == null || child.isNull()) {
                return null;
            }
            if (dot < 0) {
                return child;
            }
            if (!child.isObject()) {
                throw new MalformedEventException(path.substring(0, dot) + " must be an object");
            }
            node = child;
            start = dot + 1;
        }
    }
}

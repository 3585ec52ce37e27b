package dev.jetsink.internal.event;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.event.MalformedEventException;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Walks a request body and hands over its records (notify) or entries (audit) one tree at a time,
 * so a body costs about its own bytes plus one record's tree, not a tree of the whole body several
 * times its size. Each value is given to the caller as soon as it is read; the caller
 * turns it into its envelope and lets the tree go. A malformed body still fails as a whole: the
 * caller keeps nothing unless the walk returns.
 */
final class BodyStream {

    /** What receives each record or entry, with its 1-based number in the body. */
    @FunctionalInterface
    interface Each {
        void accept(JsonNode value, int number) throws MalformedEventException;
    }

    private BodyStream() {
    }

    /**
     * A notify body: the webhook form {@code {"EventName","Key","Records":[...]}} (each record in
     * turn) or one bare record.
     */
    static void notifyRecords(byte[] body, Each each) throws MalformedEventException {
        walk(body, parser -> {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new MalformedEventException("body is empty");
            }
            if (first != JsonToken.START_OBJECT) {
                Json.BODIES.readTree(parser);
                requireEnd(parser, "a notify body holds one JSON object, found another value");
                throw new MalformedEventException("body must be a JSON object");
            }
            ObjectNode rest = Json.NODES.objectNode();
            boolean sawRecords = false;
            int records = 0;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if (name.equals("Records") && !sawRecords && value == JsonToken.START_ARRAY) {
                    sawRecords = true;
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        each.accept(Json.BODIES.readTree(parser), ++records);
                    }
                } else {
                    rest.set(name, Json.BODIES.readTree(parser));
                }
            }
            requireEnd(parser, "a notify body holds one JSON object, found another value");
            if (sawRecords) {
                if (records == 0) {
                    throw new MalformedEventException("Records must hold at least one record");
                }
            } else if (rest.has("Records")) {
                throw new MalformedEventException("Records must be an array");
            } else {
                each.accept(rest, 1);
            }
        });
    }

    /**
     * An audit body: one entry, newline-separated entries, one JSON array of entries, or RustFS's
     * webhook envelope {@code {"EventName","Key","Records":[entry]}} (an object with a
     * {@code Records} array and no {@code api}).
     */
    static void auditEntries(byte[] body, Each each) throws MalformedEventException {
        walk(body, parser -> {
            int entries = 0;
            boolean first = true;
            JsonToken t;
            while ((t = parser.nextToken()) != null) {
                if (first && t == JsonToken.START_ARRAY) {
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        each.accept(Json.BODIES.readTree(parser), ++entries);
                    }
                    requireEnd(parser, "nothing may follow a JSON array of entries");
                    if (entries == 0) {
                        throw new MalformedEventException("body is an empty array: no entries");
                    }
                    return;
                }
                first = false;
                if (t == JsonToken.START_OBJECT) {
                    entries = object(parser, each, entries);
                } else {
                    each.accept(Json.BODIES.readTree(parser), ++entries);
                }
            }
            if (first) {
                throw new MalformedEventException("body is empty");
            }
        });
    }

    /** What reads one body from its parser. */
    @FunctionalInterface
    private interface Walk {
        void over(JsonParser parser) throws IOException, MalformedEventException;
    }

    private static void walk(byte[] body, Walk walk) throws MalformedEventException {
        JsonBody.checkBytes(body);
        JsonParser parser = null;
        try {
            parser = Json.BODIES.createParser(body);
            walk.over(parser);
        } catch (JsonProcessingException e) {
            throw located(e, parser);
        } catch (NumberFormatException e) {
            // Jackson reads a decimal as it builds the tree and reports one BigDecimal cannot hold
            // (an exponent of more than ten digits, 1e11111111111) this way, not as a parse error
            throw JsonBody.located(parser, "number out of range");
        } catch (IOException e) {
            // A byte array cannot fail to read; anything else here is a bug, not bad input.
            throw new UncheckedIOException(e);
        } finally {
            JsonBody.closeQuietly(parser);
        }
    }

    /** One top-level audit object: an entry, or RustFS's envelope of entries. Returns the count so far. */
    private static int object(JsonParser parser, Each each, int entries) throws IOException, MalformedEventException {
        ObjectNode rest = Json.NODES.objectNode();
        ArrayNode wrapped = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            if (name.equals("Records") && wrapped == null && value == JsonToken.START_ARRAY) {
                wrapped = Json.NODES.arrayNode();
                rest.set(name, NullNode.getInstance()); // keeps the member's place if this is an entry
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    wrapped.add((JsonNode) Json.BODIES.readTree(parser));
                }
            } else {
                rest.set(name, Json.BODIES.readTree(parser));
            }
        }
        int n = entries;
        if (wrapped != null && !rest.has("api")) {
            if (wrapped.isEmpty()) {
                throw new MalformedEventException("Records must hold at least one entry");
            }
            for (JsonNode entry : wrapped) {
                each.accept(entry, ++n);
            }
            return n;
        }
        if (wrapped != null) {
            rest.set("Records", wrapped);
        }
        each.accept(rest, ++n);
        return n;
    }

    private static void requireEnd(JsonParser parser, String problem) throws IOException, MalformedEventException {
        if (parser.nextToken() != null) {
            throw new MalformedEventException("line " + parser.currentTokenLocation().getLineNr() + ": " + problem);
        }
    }

    private static MalformedEventException located(JsonProcessingException e, JsonParser parser) {
        if (e instanceof JsonEOFException) {
            return JsonBody.located(e, parser, "JSON ends before the value is complete");
        }
        if (e instanceof StreamConstraintsException sce) {
            return JsonBody.located(e, parser, JsonBody.limitBroken(sce));
        }
        return JsonBody.located(e, parser, "not valid JSON");
    }
}

package dev.jetsink.internal.event;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.jetsink.event.MalformedEventException;
import dev.jetsink.internal.event.DataWriter.Spot;
import dev.jetsink.internal.config.TargetKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The usual way from a body to its events: one streaming pass over the JSON that writes each
 * record's or entry's {@code data} once ({@link DataWriter}), reads the fields the envelope and
 * the metadata need on the way, redacts audit credentials as it goes, and then takes the
 * envelope and the canonical digest from those written bytes, with no tree in between.
 *
 * <p>The tree path ({@link BodyStream}, the public event types, {@link Envelopes}) stays the
 * definition of what a body means. This pass handles the bodies senders really post and gives up
 * — returns {@code null} — on anything else: a malformed body, a missing or mistyped field, a
 * member name twice in one object, an object whose shape only the whole of it decides. The tree
 * path then gives the verdict and the error message, so every answer is the tree path's answer;
 * {@code EventParserFuzzTest} holds the two to the same bytes, digests and refusals.
 */
final class OnePass {

    private OnePass() {
    }

    /** The events of {@code body}, or {@code null} when the tree path must decide. */
    static List<OutboundEvent> events(TargetKind kind, byte[] body) throws MalformedEventException {
        JsonBody.checkBytes(body);
        try (JsonParser parser = Json.bodyParser(body)) {
            return kind == TargetKind.NOTIFY ? notifyBody(parser, body) : auditBody(parser, body);
        } catch (GiveUp | IOException | NumberFormatException e) {
            // Not a plain body, or not JSON at all (a decimal beyond BigDecimal reads as the
            // latter): the tree path reads it again and says what is wrong, if anything is.
            return null;
        }
    }

    /** A webhook form {@code {..,"Records":[record, ..]}} or one bare record. */
    private static List<OutboundEvent> notifyBody(JsonParser parser, byte[] body) throws IOException {
        GiveUp.unless(parser.nextToken() == JsonToken.START_OBJECT);
        // Read as a bare record until a Records array says it is the webhook form.
        DataWriter bare = new DataWriter(parser, body, Spot.RECORD);
        List<OutboundEvent> records = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            if (records != null) {
                skipValue(parser); // the form's own EventName and Key are rebuilt from each record
            } else if (name.equals("Records")) {
                GiveUp.unless(value == JsonToken.START_ARRAY);
                bare.abandon();
                records = arrayOfObjects(parser, body, Spot.RECORD);
            } else {
                bare.member(name, value);
            }
        }
        GiveUp.unless(parser.nextToken() == null);
        return records != null ? records : List.of(bare.finish());
    }

    /** One entry, entries one after another (NDJSON), a JSON array of entries, or RustFS's envelope. */
    private static List<OutboundEvent> auditBody(JsonParser parser, byte[] body) throws IOException {
        JsonToken t = parser.nextToken();
        if (t == JsonToken.START_ARRAY) {
            List<OutboundEvent> entries = arrayOfObjects(parser, body, Spot.ENTRY);
            GiveUp.unless(parser.nextToken() == null);
            return entries;
        }
        List<OutboundEvent> entries = new ArrayList<>();
        for (; t != null; t = parser.nextToken()) {
            GiveUp.unless(t == JsonToken.START_OBJECT);
            topLevelEntry(parser, body, entries);
        }
        GiveUp.unless(!entries.isEmpty());
        return entries;
    }

    /**
     * A top-level audit object: an entry, or RustFS's envelope, an object with a {@code Records}
     * array and no {@code api}. A Records array before any {@code api} is taken as the envelope;
     * an {@code api} after it means the object was an entry after all, which the tree path reads.
     */
    private static void topLevelEntry(JsonParser parser, byte[] body, List<OutboundEvent> entries) throws IOException {
        DataWriter entry = new DataWriter(parser, body, Spot.ENTRY);
        boolean sawApi = false;
        List<OutboundEvent> wrapped = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            if (wrapped != null) {
                GiveUp.unless(!name.equals("api"));
                skipValue(parser);
            } else if (name.equals("Records") && !sawApi && value == JsonToken.START_ARRAY) {
                entry.abandon();
                wrapped = arrayOfObjects(parser, body, Spot.ENTRY);
            } else {
                sawApi |= name.equals("api");
                entry.member(name, value);
            }
        }
        if (wrapped != null) {
            entries.addAll(wrapped);
        } else {
            entries.add(entry.finish());
        }
    }

    /** The events of the array the parser stands at the start of: at least one, each an object. */
    private static List<OutboundEvent> arrayOfObjects(JsonParser parser, byte[] body, Spot spot) throws IOException {
        List<OutboundEvent> events = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            events.add(objectValue(parser, body, spot));
        }
        GiveUp.unless(!events.isEmpty());
        return events;
    }

    /** The event of the object the parser stands at the start of. */
    private static OutboundEvent objectValue(JsonParser parser, byte[] body, Spot spot) throws IOException {
        GiveUp.unless(parser.currentToken() == JsonToken.START_OBJECT);
        DataWriter record = new DataWriter(parser, body, spot);
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            record.member(name, parser.nextToken());
        }
        return record.finish();
    }

    /**
     * Steps over the value the parser stands at, reading its decimals as the tree path does: a
     * value jetsink drops (a masked credential, the webhook form's own members) still fails the
     * body where the tree path would fail it, on a decimal no {@code BigDecimal} holds (found by the
     * fuzzer). Jackson's skipping of a string checks its escapes, as reading it would.
     */
    static void skipValue(JsonParser parser) throws IOException {
        int depth = 0;
        JsonToken t = parser.currentToken();
        while (true) {
            if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                depth++;
            } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                depth--;
            } else if (t == JsonToken.VALUE_NUMBER_FLOAT) {
                parser.getDecimalValue();
            }
            if (depth == 0) {
                return;
            }
            t = parser.nextToken();
        }
    }

    /** Thrown to leave the pass for the tree path; carries no stack, it is not an error. */
    static final class GiveUp extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private static final GiveUp INSTANCE = new GiveUp();

        private GiveUp() {
            super("not a plain body", null, false, false);
        }

        static void unless(boolean plain) {
            if (!plain) {
                throw INSTANCE;
            }
        }
    }
}

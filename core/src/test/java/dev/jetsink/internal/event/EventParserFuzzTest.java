package dev.jetsink.internal.event;

import dev.jetsink.PayloadFormat;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.event.MalformedEventException;
import dev.jetsink.internal.config.TargetKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Fuzzes the parser the daemon's ingest runs on every request body (docs/RELIABILITY.md
 * "Fuzzing"). Whatever the bytes, a body is either refused with a {@link MalformedEventException}
 * that says what is wrong, or every record it holds comes out as an envelope that reads back: its
 * {@code data} is the record, its content digest is the record's canonical digest, and the record
 * sent again on its own is the same event with the same bytes. And whatever the bytes, the one pass
 * ({@link OnePass}) answers exactly as the tree path: the same refusal, or the same envelopes,
 * digests and metadata. Seeds: the sender bodies and the event fixtures.
 */
class EventParserFuzzTest {

    @FuzzTest(maxDuration = "10m")
    void notifyBody(byte[] body) {
        parsesOrRefuses(TargetKind.NOTIFY, body);
    }

    @FuzzTest(maxDuration = "10m")
    void auditBody(byte[] body) {
        parsesOrRefuses(TargetKind.AUDIT, body);
    }

    private static void parsesOrRefuses(TargetKind kind, byte[] body) {
        List<OutboundEvent> events;
        try {
            events = EventParser.forKind(kind).parse(body);
        } catch (MalformedEventException e) {
            assertThat(e.getMessage()).as("a refusal says why").isNotBlank();
            assertThatThrownBy(() -> EventParser.forKind(kind).parseTree(body)).as("the tree path refuses it too")
                .isInstanceOf(MalformedEventException.class).hasMessage(e.getMessage());
            return;
        }
        sameAsTheTree(kind, body, events);
        assertThat(events).as("an accepted body holds at least one event").isNotEmpty();
        for (OutboundEvent event : events) {
            roundTrips(kind, event);
        }
    }

    /** The events the tree path makes of {@code body}, byte for byte. */
    static void sameAsTheTree(TargetKind kind, byte[] body, List<OutboundEvent> events) {
        List<OutboundEvent> tree;
        try {
            tree = EventParser.forKind(kind).parseTree(body);
        } catch (MalformedEventException e) {
            throw new AssertionError("the tree path refuses a body the one pass accepts: " + e.getMessage(), e);
        }
        assertThat(events).hasSameSizeAs(tree);
        for (int i = 0; i < tree.size(); i++) {
            OutboundEvent expected = tree.get(i);
            OutboundEvent actual = events.get(i);
            assertThat(new String(actual.payload(), StandardCharsets.UTF_8)).as("envelope %d", i + 1)
                .isEqualTo(new String(expected.payload(), StandardCharsets.UTF_8));
            assertThat(actual.payload()).as("envelope bytes %d", i + 1).isEqualTo(expected.payload());
            assertThat(actual.contentDigest()).as("content digest %d", i + 1).isEqualTo(expected.contentDigest());
            assertThat(actual.metadata()).as("metadata %d", i + 1).isEqualTo(expected.metadata());
            for (PayloadFormat format : PayloadFormat.values()) {
                sameFormatted(format, actual, expected, i + 1);
            }
        }
    }

    /**
     * An event in {@code format} as the tree path puts it: cut from the pass's envelope with the
     * fields the pass kept, or read back as a tree; the same bytes and attributes, or the same refusal.
     */
    private static void sameFormatted(PayloadFormat format, OutboundEvent actual, OutboundEvent expected, int n) {
        OutboundEvent want;
        try {
            want = MessageFormats.apply(format, expected.withoutFormatFields());
        } catch (RuntimeException e) {
            assertThatThrownBy(() -> MessageFormats.apply(format, actual)).as("%s %d", format, n)
                .isInstanceOf(e.getClass()).hasMessage(e.getMessage());
            return;
        }
        OutboundEvent got = MessageFormats.apply(format, actual);
        assertThat(new String(got.payload(), StandardCharsets.UTF_8)).as("%s payload %d", format, n)
            .isEqualTo(new String(want.payload(), StandardCharsets.UTF_8));
        assertThat(got.payload()).as("%s payload bytes %d", format, n).isEqualTo(want.payload());
        assertThat(got.cloudEvent()).as("%s attributes %d", format, n).containsExactlyEntriesOf(want.cloudEvent());
    }

    private static void roundTrips(TargetKind kind, OutboundEvent event) {
        JsonNode envelope = read(event.payload());
        EventMetadata m = event.metadata();
        assertThat(m.kind()).isEqualTo(kind);
        assertThat(envelope.path("EventName").textValue()).isEqualTo(m.eventName());
        assertThat(envelope.path("Key").textValue()).isEqualTo(m.bucket() + "/" + m.object());
        assertThat(envelope.path("Records").size()).isEqualTo(1);
        JsonNode record = envelope.path("Records").path(0);
        assertThat(record.path("bucket_name").textValue()).isEqualTo(m.bucket());
        assertThat(record.path("event_name").textValue()).isEqualTo(m.eventName());
        JsonNode data = record.path("data");
        assertThat(data.isObject()).isTrue();
        assertThat(CanonicalJson.sha256(data)).as("the digest is that of the data published")
            .isEqualTo(event.contentDigest());

        // The record (or entry) on its own, as a store would send it again: the same event.
        ArrayNode list = Json.NODES.arrayNode().add(data);
        byte[] again = JsonBody.write(gen -> JsonBody.writeNode(gen, kind == TargetKind.NOTIFY
            ? Json.object().set("Records", list) : list, false));
        List<OutboundEvent> reparsed;
        try {
            reparsed = EventParser.forKind(kind).parse(again);
        } catch (MalformedEventException e) {
            throw new AssertionError("an accepted record is refused when sent again: " + e.getMessage(), e);
        }
        assertThat(reparsed).hasSize(1);
        assertThat(reparsed.get(0).payload()).as("same envelope bytes").isEqualTo(event.payload());
        assertThat(reparsed.get(0).contentDigest()).isEqualTo(event.contentDigest());
        assertThat(reparsed.get(0).metadata()).isEqualTo(m);
    }

    private static JsonNode read(byte[] payload) {
        try {
            JsonNode n = Json.READER.readTree(payload);
            assertThat(n).isInstanceOf(ObjectNode.class);
            return n;
        } catch (IOException e) {
            throw new AssertionError("an envelope is not JSON", e);
        }
    }
}

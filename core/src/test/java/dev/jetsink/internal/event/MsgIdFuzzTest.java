package dev.jetsink.internal.event;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.MsgIdMode;
import dev.jetsink.event.MalformedEventException;
import dev.jetsink.internal.config.TargetKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the identity of an event (docs/RELIABILITY.md "Fuzzing"): the content msg id
 * ({@link MsgIds#forEvent} under {@code MSG_ID=content}, from {@link CanonicalJson}) is the same for
 * one record however its JSON is written — members in another order, other whitespace, characters
 * escaped or not, bare or in the webhook form — and differs as soon as the record differs, or
 * the target does.
 */
class MsgIdFuzzTest {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @FuzzTest(maxDuration = "10m")
    void sameRecordSameIdAnyOtherRecordAnotherId(FuzzedDataProvider data) throws MalformedEventException {
        TargetKind kind = data.consumeBoolean() ? TargetKind.NOTIFY : TargetKind.AUDIT;
        ObjectNode record = kind == TargetKind.NOTIFY ? notifyRecord(data) : auditEntry(data);
        String targetId = data.consumeBoolean() ? "_" : data.consumeString(8);

        OutboundEvent plain = only(kind, JsonBody.write(gen -> JsonBody.writeNode(gen, record, false)));
        OutboundEvent respelled = only(kind, respell(kind, record, data));
        assertThat(id(respelled, kind, targetId)).as("same record, written differently")
            .isEqualTo(id(plain, kind, targetId));

        String otherTarget = targetId + "x";
        assertThat(id(plain, kind, otherTarget)).as("another target").isNotEqualTo(id(plain, kind, targetId));
        TargetKind otherKind = kind == TargetKind.NOTIFY ? TargetKind.AUDIT : TargetKind.NOTIFY;
        assertThat(MsgIds.content(otherKind, targetId, plain.contentDigest())).as("another kind")
            .isNotEqualTo(MsgIds.content(kind, targetId, plain.contentDigest()));

        ObjectNode changed = record.deepCopy();
        change(changed, data);
        OutboundEvent other;
        try {
            other = only(kind, JsonBody.write(gen -> JsonBody.writeNode(gen, changed, false)));
        } catch (MalformedEventException e) {
            return; // the change broke a required field: no event, nothing to compare
        }
        JsonNode before = published(plain);
        JsonNode after = published(other);
        if (before.equals(after)) {
            // e.g. a credential header changed: redaction masks both the same way
            assertThat(id(other, kind, targetId)).isEqualTo(id(plain, kind, targetId));
        } else {
            assertThat(id(other, kind, targetId)).as("a different record").isNotEqualTo(id(plain, kind, targetId));
        }
    }

    private static String id(OutboundEvent e, TargetKind kind, String targetId) {
        return MsgIds.forEvent(e, MsgIdMode.CONTENT, kind, targetId).orElseThrow();
    }

    private static OutboundEvent only(TargetKind kind, byte[] body) throws MalformedEventException {
        List<OutboundEvent> events = EventParser.forKind(kind).parse(body);
        assertThat(events).hasSize(1);
        return events.get(0);
    }

    private static ObjectNode notifyRecord(FuzzedDataProvider data) {
        ObjectNode r = NODES.objectNode();
        ObjectNode s3 = NODES.objectNode();
        ObjectNode bucket = NODES.objectNode().put("name", nonEmpty(data));
        ObjectNode object = NODES.objectNode().put("key", nonEmpty(data));
        s3.set("bucket", bucket);
        s3.set("object", object);
        r.put("eventName", nonEmpty(data));
        r.set("s3", s3);
        extras(r, data, 3);
        extras(object, data, 2);
        return r;
    }

    private static ObjectNode auditEntry(FuzzedDataProvider data) {
        ObjectNode e = NODES.objectNode();
        e.putObject("api").put("name", data.consumeString(12)).put("bucket", data.consumeString(12));
        e.put("event", data.consumeString(12));
        ObjectNode headers = e.putObject("requestHeader");
        headers.put(data.consumeBoolean() ? "Authorization" : "X-Other", data.consumeString(16));
        extras(e, data, 3);
        return e;
    }

    /**
     * A member name; never {@code Records}, which at the top of a body makes it the webhook form
     * (another body shape, not another spelling of the same record).
     */
    private static String member(FuzzedDataProvider data) {
        String name = data.consumeString(8);
        return name.equals("Records") ? "records" : name;
    }

    private static String nonEmpty(FuzzedDataProvider data) {
        String s = data.consumeString(16);
        return s.isEmpty() ? "x" : s;
    }

    /** Up to a few more members of any JSON type, nested at most {@code depth} deep. */
    private static void extras(ObjectNode into, FuzzedDataProvider data, int depth) {
        int n = data.consumeInt(0, 4);
        for (int i = 0; i < n; i++) {
            String name = member(data);
            if (!into.has(name)) {
                into.set(name, value(data, depth));
            }
        }
    }

    private static JsonNode value(FuzzedDataProvider data, int depth) {
        int kind = data.consumeInt(0, depth > 0 ? 8 : 6);
        return switch (kind) {
            case 0 -> NODES.textNode(data.consumeString(16));
            case 1 -> NODES.numberNode(data.consumeInt());
            case 2 -> NODES.numberNode(data.consumeLong());
            case 3 -> NODES.numberNode(new BigDecimal(BigInteger.valueOf(data.consumeLong()), data.consumeInt(-5, 5)));
            case 4 -> NODES.booleanNode(data.consumeBoolean());
            case 5 -> NODES.nullNode();
            case 6 -> NODES.numberNode(new BigInteger(1, data.consumeBytes(12)));
            case 7 -> {
                ArrayNode a = NODES.arrayNode();
                int n = data.consumeInt(0, 3);
                for (int i = 0; i < n; i++) {
                    a.add(value(data, depth - 1));
                }
                yield a;
            }
            default -> {
                ObjectNode o = NODES.objectNode();
                extras(o, data, depth - 1);
                yield o;
            }
        };
    }

    /** One leaf value or member of {@code record} changed, added or removed. */
    private static void change(ObjectNode record, FuzzedDataProvider data) {
        List<ObjectNode> objects = new ArrayList<>();
        collect(record, objects);
        ObjectNode target = objects.get(data.consumeInt(0, objects.size() - 1));
        List<String> names = new ArrayList<>();
        target.fieldNames().forEachRemaining(names::add);
        int what = data.consumeInt(0, 2);
        if (what == 0 || names.isEmpty()) {
            String name = member(data);
            target.set(name, value(data, 1));
        } else if (what == 1) {
            target.remove(names.get(data.consumeInt(0, names.size() - 1)));
        } else {
            target.set(names.get(data.consumeInt(0, names.size() - 1)), value(data, 1));
        }
    }

    private static void collect(JsonNode node, List<ObjectNode> into) {
        if (node instanceof ObjectNode o) {
            into.add(o);
        }
        for (JsonNode child : node) {
            collect(child, into);
        }
    }

    /** {@code record} as a store might send it again: members shuffled, spaced, escaped, maybe wrapped. */
    private static byte[] respell(TargetKind kind, ObjectNode record, FuzzedDataProvider data) {
        StringBuilder b = new StringBuilder();
        boolean wrap = data.consumeBoolean();
        if (wrap) {
            b.append(kind == TargetKind.NOTIFY ? "{" + space(data) + "\"Records\"" + space(data) + ":" + space(data) + "["
                : "[" + space(data));
        }
        write(b, record, data);
        if (wrap) {
            b.append(space(data)).append(kind == TargetKind.NOTIFY ? "]" + space(data) + "}" : "]");
        }
        b.append(space(data));
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void write(StringBuilder b, JsonNode node, FuzzedDataProvider data) {
        b.append(space(data));
        if (node.isObject()) {
            List<Map.Entry<String, JsonNode>> members = new ArrayList<>(node.properties());
            // a fuzzer-chosen permutation of the members
            for (int i = members.size() - 1; i > 0; i--) {
                int j = data.consumeInt(0, i);
                Map.Entry<String, JsonNode> t = members.get(i);
                members.set(i, members.get(j));
                members.set(j, t);
            }
            b.append('{');
            for (int i = 0; i < members.size(); i++) {
                if (i > 0) {
                    b.append(space(data)).append(',');
                }
                b.append(space(data));
                string(b, members.get(i).getKey(), data);
                b.append(space(data)).append(':');
                write(b, members.get(i).getValue(), data);
            }
            b.append(space(data)).append('}');
        } else if (node.isArray()) {
            b.append('[');
            for (int i = 0; i < node.size(); i++) {
                if (i > 0) {
                    b.append(space(data)).append(',');
                }
                write(b, node.get(i), data);
            }
            b.append(space(data)).append(']');
        } else if (node.isTextual()) {
            string(b, node.textValue(), data);
        } else {
            b.append(node.toString()); // numbers keep their digits, true/false/null their words
        }
        b.append(space(data));
    }

    private static String space(FuzzedDataProvider data) {
        int n = data.consumeInt(0, 3);
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < n; i++) {
            s.append(" \t\n\r".charAt(data.consumeInt(0, 3)));
        }
        return s.toString();
    }

    /** A JSON string with each character written plainly or as a {@code \\u} escape, as the fuzzer picks. */
    private static void string(StringBuilder b, String s, FuzzedDataProvider data) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean mustEscape = c < 0x20 || c == '"' || c == '\\' || Character.isSurrogate(c);
            if (mustEscape || data.consumeBoolean()) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        b.append('"');
    }

    /** The record or entry an envelope publishes. */
    private static JsonNode published(OutboundEvent e) {
        try {
            return Json.READER.readTree(e.payload()).path("Records").path(0).path("data");
        } catch (java.io.IOException ex) {
            throw new AssertionError(ex);
        }
    }
}

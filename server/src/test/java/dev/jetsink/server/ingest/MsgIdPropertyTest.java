package dev.jetsink.server.ingest;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventParser;
import dev.jetsink.internal.event.MsgIds;
import dev.jetsink.internal.event.OutboundEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two records that differ in any published field get different msg ids: every real
 * sender's request, one leaf value changed at a time. A field redaction hides (a signed header of
 * an audit entry) is not published, so it does not count.
 */
class MsgIdPropertyTest {

    @ParameterizedTest
    @CsvSource({
        "minio-notify-put.http, NOTIFY", "minio-notify-delete.http, NOTIFY", "rustfs-notify-put.http, NOTIFY",
        "ceph-notify-put.http, NOTIFY", "ceph-rgw-real-persist-ObjectCreated-Put.http, NOTIFY",
        "ceph-rgw-real-sync-ObjectCreated-Copy.http, NOTIFY", "minio-audit-single.http, AUDIT",
        "minio-audit-batch3.http, AUDIT", "rustfs-audit.http, AUDIT"})
    void changingAnyPublishedFieldChangesTheMsgId(String fixture, TargetKind kind) throws Exception {
        byte[] body = SenderRequest.load(fixture).body();
        List<OutboundEvent> original = EventParser.forKind(kind).parse(body);
        List<JsonNode> roots = roots(body);
        int mutations = 0;
        for (int r = 0; r < roots.size(); r++) {
            for (JsonNode mutated : mutations(roots.get(r))) {
                List<JsonNode> changed = new ArrayList<>(roots);
                changed.set(r, mutated);
                List<OutboundEvent> events = EventParser.forKind(kind).parse(bodyOf(changed));
                assertThat(events).hasSameSizeAs(original);
                for (int i = 0; i < events.size(); i++) {
                    boolean published = !Arrays.equals(events.get(i).payload(), original.get(i).payload());
                    boolean sameId = MsgIds.content(kind, "_", events.get(i).contentDigest())
                        .equals(MsgIds.content(kind, "_", original.get(i).contentDigest()));
                    if (published) {
                        mutations++;
                        assertThat(sameId).as(fixture + ": a changed record kept its msg id:\n" + mutated).isFalse();
                    } else {
                        assertThat(sameId).as(fixture + ": an unchanged record changed its msg id").isTrue();
                    }
                }
            }
        }
        assertThat(mutations).as("fields mutated in " + fixture).isGreaterThan(10);
    }

    // NDJSON bodies (MinIO audit batches) hold one root per line; the others one.
    private static List<JsonNode> roots(byte[] body) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : new String(body, StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                out.add(Json.READER.readTree(line));
            }
        }
        return out;
    }

    private static byte[] bodyOf(List<JsonNode> roots) throws Exception {
        StringBuilder s = new StringBuilder();
        for (JsonNode r : roots) {
            s.append(Json.WRITER.writeValueAsString(r)).append('\n');
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A copy of {@code root} for each leaf, with that one leaf's value changed. */
    private static List<JsonNode> mutations(JsonNode root) {
        List<JsonNode> out = new ArrayList<>();
        collect(root, root, new ArrayList<>(), out);
        return out;
    }

    private static void collect(JsonNode root, JsonNode node, List<Object> path, List<JsonNode> out) {
        if (node.isObject()) {
            node.fieldNames().forEachRemaining(name -> {
                List<Object> p = new ArrayList<>(path);
                p.add(name);
                collect(root, node.get(name), p, out);
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                List<Object> p = new ArrayList<>(path);
                p.add(i);
                collect(root, node.get(i), p, out);
            }
        } else {
            JsonNode copy = root.deepCopy();
            set(copy, path, changed(node));
            out.add(copy);
        }
    }

    private static JsonNode changed(JsonNode leaf) {
        if (leaf.isTextual()) {
            return TextNode.valueOf(leaf.asText() + "x");
        }
        if (leaf.isBoolean()) {
            return BooleanNode.valueOf(!leaf.asBoolean());
        }
        if (leaf.isNumber()) {
            return Json.NODES.numberNode(leaf.decimalValue().add(java.math.BigDecimal.ONE));
        }
        return TextNode.valueOf("x");
    }

    private static void set(JsonNode root, List<Object> path, JsonNode value) {
        JsonNode parent = root;
        for (int i = 0; i < path.size() - 1; i++) {
            Object step = path.get(i);
            parent = step instanceof Integer n ? parent.get(n) : parent.get((String) step);
        }
        Object last = path.get(path.size() - 1);
        if (last instanceof Integer n) {
            ((ArrayNode) parent).set(n, value);
        } else {
            ((ObjectNode) parent).set((String) last, value);
        }
    }
}

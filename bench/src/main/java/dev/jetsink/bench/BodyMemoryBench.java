package dev.jetsink.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventParser;
import dev.jetsink.internal.event.OutboundEvent;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Heap a maximal webhook body costs while it is parsed: a 4 MiB MinIO-shaped body of
 * ~2 800 records. Measured as live heap after a full GC while the result is still referenced:
 * the events the ingest keeps (envelopes, metadata, digests) and, for comparison, a Jackson tree of
 * the whole body — what the ingest held beside the events before records were parsed one at a
 * time. Usage: {@code BodyMemoryBench --out RESULTS.json}.
 */
public final class BodyMemoryBench {

    private BodyMemoryBench() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length >= 2 && args[0].equals("--out") ? args[1] : "bench/results/latest.json");
        ObjectMapper json = new ObjectMapper();
        byte[] one;
        try (InputStream in = BodyMemoryBench.class.getResourceAsStream("minio-notify-put.json")) {
            one = in.readAllBytes();
        }
        ObjectNode template = (ObjectNode) json.readTree(one);
        JsonNode record = template.get("Records").get(0);
        ArrayNode records = template.putArray("Records");
        int n = 0;
        while (json.writeValueAsBytes(template).length < 4 * 1024 * 1024 - 4096) {
            ObjectNode r = record.deepCopy();
            ((ObjectNode) r.get("s3").get("object")).put("key", "flood/ev-" + n++ + ".json");
            records.add(r);
        }
        records.remove(records.size() - 1);
        byte[] body = json.writeValueAsBytes(template);
        EventParser parser = EventParser.forKind(TargetKind.NOTIFY);
        parser.parse(body); // warm up
        long base = live();
        List<OutboundEvent> events = parser.parse(body);
        long eventsBytes = live() - base;
        JsonNode tree = new ObjectMapper().readTree(body);
        long treeBytes = live() - base - eventsBytes;
        double mib = 1024.0 * 1024;
        System.out.printf("4 MiB body (%d bytes, %d records): events kept %.1f MiB (%.1f x the body); a whole-body tree"
                + " %.1f MiB more (%.1f x), which the ingest no longer holds%n", body.length, events.size(),
            eventsBytes / mib, eventsBytes / (double) body.length, treeBytes / mib, treeBytes / (double) body.length);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("body_bytes", body.length);
        r.put("records", events.size());
        r.put("events_live_bytes", eventsBytes);
        r.put("whole_tree_live_bytes", treeBytes);
        r.put("per_body_before_x", Math.round(10.0 * (eventsBytes + treeBytes + body.length) / body.length) / 10.0);
        r.put("per_body_after_x", Math.round(10.0 * (eventsBytes + body.length) / body.length) / 10.0);
        ObjectNode root = Files.exists(out) ? (ObjectNode) json.readTree(out.toFile()) : json.createObjectNode();
        root.set("body_memory", json.valueToTree(r));
        json.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), root);
        if (events.isEmpty() || tree.isEmpty()) {
            throw new IllegalStateException("nothing parsed");
        }
    }

    private static long live() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }
}

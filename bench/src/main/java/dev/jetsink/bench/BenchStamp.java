package dev.jetsink.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;

/**
 * Dates the sections of {@code bench/results/latest.json} that a {@code bench/run} changed: each
 * gets {@code "measured": {"date": "YYYY-MM-DD", "nats_server": "X.Y.Z"}}, so every figure the
 * documents take from the file carries the day and the broker it was measured with. A section the
 * run left as it was keeps its own date.
 *
 * <p>Usage: {@code BenchStamp RESULTS.json BEFORE.json NATS_SERVER_VERSION}, where BEFORE is a copy
 * of RESULTS taken before the run (absent or empty when there was none).
 */
public final class BenchStamp {

    static final String FIELD = "measured";

    private BenchStamp() {
    }

    public static void main(String[] args) throws IOException {
        ObjectMapper json = new ObjectMapper();
        Path results = Path.of(args[0]);
        Path before = Path.of(args[1]);
        JsonNode old = Files.isRegularFile(before) && Files.size(before) > 0 ? json.readTree(before.toFile()) : json.createObjectNode();
        ObjectNode now = (ObjectNode) json.readTree(results.toFile());
        int dated = stamp(now, old, LocalDate.now(ZoneOffset.UTC).toString(), args[2]);
        json.writerWithDefaultPrettyPrinter().writeValue(results.toFile(), now);
        System.out.println("dated " + dated + " changed section(s) of " + results);
    }

    /** Dates every section of {@code now} that differs from {@code old} (their dates aside); returns how many. */
    static int stamp(ObjectNode now, JsonNode old, String date, String natsServer) {
        int dated = 0;
        for (Map.Entry<String, JsonNode> section : now.properties()) {
            if (!(section.getValue() instanceof ObjectNode s)) {
                continue;
            }
            JsonNode was = old.path(section.getKey());
            if (!undated(s).equals(was.isObject() ? undated((ObjectNode) was) : was) || !s.has(FIELD)) {
                s.putObject(FIELD).put("date", date).put("nats_server", natsServer);
                dated++;
            }
        }
        return dated;
    }

    private static JsonNode undated(ObjectNode section) {
        ObjectNode copy = section.deepCopy();
        copy.remove(FIELD);
        return copy;
    }

    /** How a section's date reads in a document: "2026-12-07, nats-server 2.15.1", or "undated". */
    static String of(JsonNode section) {
        JsonNode m = section.path(FIELD);
        if (!m.has("date")) {
            return "undated";
        }
        return m.path("date").asText() + (m.hasNonNull("nats_server") ? ", nats-server " + m.path("nats_server").asText() : "");
    }
}

package dev.jetsink.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs {@code wrk} (keep-alive connections, as many requests as the server answers) with a Lua
 * script that POSTs bodies of one shape, each holding distinct events, and reads its summary.
 */
final class Wrk {

    static final int CONNECTIONS = 64;
    static final int THREADS = 2;

    private final Path binary;
    private final Path script;
    private final String path;
    private final int connections;

    private Wrk(Path binary, Path script, String path, int connections) {
        this.binary = binary;
        this.script = script;
        this.path = path;
        this.connections = connections;
    }

    /**
     * The shape of a request body: {@code prefix}, then {@code perRequest} events joined by
     * {@code joiner}, then {@code suffix}. Each event is {@code eventHead}, a marker unique to the
     * event, {@code eventTail}: jetsink derives msg ids from content, so every event must differ
     * (the same bytes again would be one event re-sent).
     */
    record Shape(String path, Map<String, String> headers, String prefix, String eventHead, String eventTail,
                 String joiner, String suffix, int perRequest) {

        /** The body of request {@code n}, as the script builds it (for checks outside wrk). */
        byte[] body(String n) {
            StringBuilder b = new StringBuilder(prefix);
            for (int i = 1; i <= perRequest; i++) {
                b.append(i > 1 ? joiner : "").append(eventHead).append(n).append('-').append(i).append(eventTail);
            }
            return b.append(suffix).toString().getBytes(StandardCharsets.UTF_8);
        }
    }

    /**
     * The shape of an S3 notification {@code body} (a MinIO webhook body) carrying {@code records}
     * copies of its first record, each with a {@code "bench"} member first.
     */
    static Shape notify(byte[] body, int records) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(body);
        JsonNode first = root.path("Records").path(0);
        if (!first.isObject()) {
            throw new IllegalArgumentException("body must hold a Records array of objects");
        }
        root.put("Records", "@@records@@");
        String[] around = json.writeValueAsString(root).split("\"@@records@@\"", -1);
        String record = json.writeValueAsString(first);
        return new Shape("/notify", Map.of("Content-Type", "application/json"), around[0] + "[", "{\"bench\":\"",
            "\"," + record.substring(1), ",", "]" + around[1], records);
    }

    /**
     * {@link #notify} with each record about an object of its own: the request's marker is the
     * start of the record's {@code s3.object.key} ({@code <marker>2025%2Fcat+1.jpg}), so events
     * spread over objects as a store's do (the ordered mode's fair case).
     */
    static Shape notifySpread(byte[] body, int records) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(body);
        ObjectNode first = (ObjectNode) root.path("Records").path(0);
        ObjectNode object = (ObjectNode) first.path("s3").path("object");
        object.put("key", "@@marker@@" + object.path("key").asText());
        root.put("Records", "@@records@@");
        String[] around = json.writeValueAsString(root).split("\"@@records@@\"", -1);
        String[] record = json.writeValueAsString(first).split("@@marker@@", -1);
        return new Shape("/notify", Map.of("Content-Type", "application/json"), around[0] + "[", record[0], record[1],
            ",", "]" + around[1], records);
    }

    /** {@link #auditBatch} with each entry about an object of its own: the marker starts {@code api.object}. */
    static Shape auditSpread(byte[] entry, int entries) throws IOException {
        ObjectNode one = (ObjectNode) new ObjectMapper().readTree(entry);
        ObjectNode api = (ObjectNode) one.path("api");
        api.put("object", "@@marker@@" + api.path("object").asText());
        String[] parts = one.toString().split("@@marker@@", -1);
        return new Shape("/audit", Map.of("X-Minio-Webhook-Payload-Count", Integer.toString(entries)), "",
            parts[0], parts[1], "\n", "\n", entries);
    }

    /** The shape of MinIO's audit webhook with batching: {@code entries} NDJSON lines, no Content-Type. */
    static Shape auditBatch(byte[] entry, int entries) throws IOException {
        String one = new ObjectMapper().readTree(entry).toString();
        return new Shape("/audit", Map.of("X-Minio-Webhook-Payload-Count", Integer.toString(entries)), "",
            "{\"bench\":\"", "\"," + one.substring(1), "\n", "\n", entries);
    }

    /** {@code wrk} posting one MinIO {@code body} per request on {@value #CONNECTIONS} connections. */
    static Wrk posting(Path binary, byte[] body, Path dir) throws IOException {
        return posting(binary, notify(body, 1), CONNECTIONS, dir);
    }

    /** Writes the request script for {@code shape} into {@code dir}. */
    static Wrk posting(Path binary, Shape shape, int connections, Path dir) throws IOException {
        String all = shape.prefix + shape.eventHead + shape.eventTail + shape.joiner + shape.suffix + shape.path
            + String.join("", shape.headers.keySet()) + String.join("", shape.headers.values());
        if (all.contains("]==]")) {
            throw new IllegalArgumentException("body must be quotable as a Lua long string");
        }
        StringBuilder lua = new StringBuilder("wrk.method = \"POST\"\n")
            .append("wrk.path = [==[").append(shape.path).append("]==]\n");
        shape.headers.forEach((k, v) -> lua.append("wrk.headers[ [==[").append(k).append("]==] ] = [==[").append(v)
            .append("]==]\n"));
        lua.append("local threads = 0\n")
            .append("function setup(thread)\n  threads = threads + 1\n  thread:set(\"tid\", threads)\nend\n")
            .append("local prefix = [==[").append(shape.prefix).append("]==]\n")
            .append("local head = [==[").append(shape.eventHead).append("]==]\n")
            .append("local tail = [==[").append(shape.eventTail).append("]==]\n")
            .append("local joiner = [==[").append(shape.joiner).append("]==]\n")
            .append("local suffix = [==[").append(shape.suffix).append("]==]\n")
            .append("local per = ").append(shape.perRequest).append("\n")
            .append("local n = 0\n")
            // each wrk run (warm-up, measured) starts its own numbering: the run's start second keeps them apart
            .append("local run = os.time()\n")
            .append("function request()\n  n = n + 1\n  local parts = {}\n")
            .append("  for i = 1, per do parts[i] = head .. run .. \"-\" .. tid .. \"-\" .. n .. \"-\" .. i .. tail end\n")
            .append("  return wrk.format(nil, nil, nil, prefix .. table.concat(parts, joiner) .. suffix)\nend\n");
        // Lua long strings drop a newline that directly follows the opening bracket
        String text = lua.toString().replace("[==[\n", "[==[\n\n");
        Path script = Files.createTempFile(dir, "post-", ".lua");
        Files.writeString(script, text);
        return new Wrk(binary, script, shape.path, connections);
    }

    int connections() {
        return connections;
    }

    /** {@code body} with a distinct {@code "bench"} member in its first record, as the wrk script sends it. */
    static byte[] numbered(byte[] body, String n) {
        String json = new String(body, StandardCharsets.UTF_8);
        String marker = "\"Records\":[{";
        int at = json.indexOf(marker) + marker.length();
        return (json.substring(0, at) + "\"bench\":\"" + n + "\"," + json.substring(at)).getBytes(StandardCharsets.UTF_8);
    }

    /** One run against {@code http://host:port} for {@code seconds}; the pressure covers the run. */
    Result run(String host, int port, int seconds) throws Exception {
        List<String> cmd = List.of(binary.toString(), "-t", Integer.toString(THREADS), "-c", Integer.toString(connections),
            "-d", seconds + "s", "--timeout", "10s", "--latency", "-s", script.toString(),
            "http://" + host + ":" + port + path);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        CpuPressure before = CpuPressure.sample();
        String out;
        try {
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(seconds + 30L, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("wrk failed:\n" + out);
            }
        } finally {
            p.destroyForcibly();
        }
        CpuPressure after = CpuPressure.sample();
        return Result.parse(out, after.percentSince(before).orElse(-1));
    }

    /**
     * wrk's summary: completed requests (non-2xx/3xx included), socket errors, latency percentiles.
     *
     * @param cpuPressurePct CPU pressure during the run, -1 if unknown
     */
    record Result(long requests, double seconds, long non2xx, long socketErrors, double p50Ms, double p99Ms,
                  double cpuPressurePct, String output) {

        private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in ([\\d.]+)(us|ms|s|m)");
        private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");
        private static final Pattern ERRORS = Pattern.compile(
            "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");

        double requestsPerSecond() {
            return requests / seconds;
        }

        long ok() {
            return requests - non2xx;
        }

        static Result parse(String out, double pressure) {
            Matcher r = REQUESTS.matcher(out);
            if (!r.find()) {
                throw new IllegalStateException("no request count in wrk output:\n" + out);
            }
            Matcher n = NON_2XX.matcher(out);
            Matcher e = ERRORS.matcher(out);
            long errors = 0;
            if (e.find()) {
                for (int g = 1; g <= 4; g++) {
                    errors += Long.parseLong(e.group(g));
                }
            }
            return new Result(Long.parseLong(r.group(1)), millis(r.group(2), r.group(3)) / 1000,
                n.find() ? Long.parseLong(n.group(1)) : 0, errors,
                percentile(out, "50%"), percentile(out, "99%"), pressure, out);
        }

        private static double percentile(String out, String label) {
            Matcher m = Pattern.compile("^\\s+" + Pattern.quote(label) + "\\s+([\\d.]+)(us|ms|s|m)\\s*$", Pattern.MULTILINE)
                .matcher(out);
            if (!m.find()) {
                throw new IllegalStateException("no " + label + " latency in wrk output:\n" + out);
            }
            return Math.round(millis(m.group(1), m.group(2)) * 100) / 100.0;
        }

        private static double millis(String value, String unit) {
            double v = Double.parseDouble(value);
            return switch (unit) {
                case "us" -> v / 1000;
                case "ms" -> v;
                case "s" -> v * 1000;
                case "m" -> v * 60_000;
                default -> throw new IllegalArgumentException(unit);
            };
        }

        String summary() {
            return String.format("%.0f requests/s (%d in %.1f s), %d non-2xx, %d socket errors, p50 %.2f ms, p99 %.2f ms, "
                + "cpu pressure %.1f %%", requestsPerSecond(), requests, seconds, non2xx, socketErrors, p50Ms, p99Ms,
                cpuPressurePct);
        }
    }
}

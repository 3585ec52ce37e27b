package dev.jetsink.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs {@code wrk} (keep-alive connections, as many requests as the server answers) with a Lua
 * script that POSTs one fixed body to {@code /notify}, and reads its summary.
 */
final class Wrk {

    static final int CONNECTIONS = 64;
    static final int THREADS = 2;

    private final Path binary;
    private final Path script;

    private Wrk(Path binary, Path script) {
        this.binary = binary;
        this.script = script;
    }

    /**
     * Writes the request script for {@code body} into {@code dir}. Every request carries a distinct
     * event, as a store's would: a {@code "bench"} member holding the run's start second, the wrk
     * thread and the request number goes first into the first record, so jetsink's content-derived msg ids differ and the stream
     * stores each one (the same bytes every time would be one event re-sent).
     */
    static Wrk posting(Path binary, byte[] body, Path dir) throws IOException {
        String json = new String(body, StandardCharsets.UTF_8);
        String marker = "\"Records\":[{";
        int at = json.indexOf(marker);
        if (json.contains("]==]") || at < 0) {
            throw new IllegalArgumentException("body must hold a Records array and be quotable as a Lua long string");
        }
        String head = json.substring(0, at + marker.length()) + "\"bench\":\"";
        String tail = "\"," + json.substring(at + marker.length());
        Path script = dir.resolve("notify-post.lua");
        Files.writeString(script, "wrk.method = \"POST\"\n"
            + "wrk.path = \"/notify\"\n"
            + "wrk.headers[\"Content-Type\"] = \"application/json\"\n"
            + "local threads = 0\n"
            + "function setup(thread)\n  threads = threads + 1\n  thread:set(\"tid\", threads)\nend\n"
            + "local head = [==[" + head + "]==]\n"
            + "local tail = [==[" + tail + "]==]\n"
            + "local n = 0\n"
            // each wrk run (warm-up, measured) starts its own numbering: the run's start second keeps them apart
            + "local run = os.time()\n"
            + "function request()\n  n = n + 1\n"
            + "  return wrk.format(nil, nil, nil, head .. run .. \"-\" .. tid .. \"-\" .. n .. tail)\nend\n");
        return new Wrk(binary, script);
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
        List<String> cmd = List.of(binary.toString(), "-t", Integer.toString(THREADS), "-c", Integer.toString(CONNECTIONS),
            "-d", seconds + "s", "--timeout", "10s", "--latency", "-s", script.toString(),
            "http://" + host + ":" + port + "/notify");
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

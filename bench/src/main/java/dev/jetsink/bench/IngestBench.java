package dev.jetsink.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * HTTP ingest capacity of a real {@code jetsink serve} (the shipped jar, one notify target on the
 * JetStream path, fsync on) against its two ceilings, measured back to back in one run:
 * <ol>
 *   <li>jetsink: {@code wrk}, {@value Wrk#CONNECTIONS} keep-alive connections, POSTing one MinIO
 *       {@code s3:ObjectCreated:Put} event (1.3 KiB) per request to {@code /notify}; afterwards the
 *       stream must hold as many new messages as wrk counted 2xx responses;</li>
 *   <li>raw publish: jnats {@code publishAsync} of the same payload with msg ids, window
 *       {@value RawPublishLoad#WINDOW}, into the same kind of stream — the broker's limit;</li>
 *   <li>nginx answering {@code return 200} to the same wrk script — the machine's HTTP ceiling;</li>
 *   <li>slow clients: a fixed-rate normal client's p99 in windows alone and windows while
 *       {@code --stalled} connections each sit on half a request header, interleaved over
 *       {@code --stall-rounds} rounds ({@link SlowClientCheck});</li>
 *   <li>R1 only: a second daemon with {@code ORDER=key} against the first, each request's event
 *       about an object of its own ({@link IngestOrder}).</li>
 * </ol>
 * CPU pressure ({@link CpuPressure}) is recorded beside every figure.
 *
 * <p>Usage: {@code IngestBench --jar JAR --out RESULTS.json --wrk WRK --nginx NGINX [--seconds 30]
 * [--stall-rate 2000] [--stall-seconds 8] [--stall-rounds 4] [--stalled 500] [--jfr FILE.jfr] [--only-jetsink yes] [--order-only yes]}
 * ({@code --only-jetsink} for profiling runs: the daemon alone, nothing written; {@code --order-only}
 * measures only the {@code ORDER=key} comparison and adds it to the section a full run wrote).
 */
public final class IngestBench {

    static final String STREAM = "INGEST";
    static final String SUBJECT = "bench.ingest.jetsink";
    private static final String RAW_STREAM = "INGEST_RAW";
    private static final String RAW_SUBJECT = "bench.ingest.raw";
    private static final String ACCEPTED = "rustfs_notification_total_messages";
    private static final String QUEUE_LENGTH = "rustfs_notification_target_queue_length";

    private IngestBench() {
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    public static void main(String[] args) throws Exception {
        Map<String, String> opts = BenchOptions.parse(args);
        for (String required : List.of("jar", "out", "wrk", "nginx")) {
            if (!opts.containsKey(required)) {
                throw new IllegalArgumentException("usage: IngestBench --jar JAR --out RESULTS.json --wrk WRK --nginx NGINX "
                    + "[--seconds 30] [--stall-rate 2000] [--stall-seconds 8] [--stall-rounds 4] [--stalled 500] [--jfr FILE] [--only-jetsink yes] [--order-only yes]");
            }
        }
        int seconds = Integer.parseInt(opts.getOrDefault("seconds", "20"));
        int rounds = Integer.parseInt(opts.getOrDefault("rounds", "3"));
        int stallRate = Integer.parseInt(opts.getOrDefault("stall-rate", "2000"));
        int stallSeconds = Integer.parseInt(opts.getOrDefault("stall-seconds", Integer.toString(Math.min(8, seconds))));
        int stallRounds = Integer.parseInt(opts.getOrDefault("stall-rounds", "4"));
        int stalled = Integer.parseInt(opts.getOrDefault("stalled", "500"));
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be at least 1");
        }
        Path out = Path.of(opts.get("out"));
        byte[] body = body();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("seconds", seconds);
        r.put("rounds", rounds);
        r.put("body_bytes", body.length);
        r.put("wrk_connections", Wrk.CONNECTIONS);
        r.put("wrk_threads", Wrk.THREADS);

        CpuPressure idleStart = CpuPressure.sample();
        Thread.sleep(3000);
        CpuPressure idleEnd = CpuPressure.sample();
        r.put("idle_cpu_pressure_pct", idleEnd.percentSince(idleStart).orElse(-1));
        System.out.printf("ingest benchmark: %d rounds of %d s per measurement, %d B body; %s with nothing of ours running%n",
            rounds, seconds, body.length, idleEnd.textSince(idleStart));

        Path work = Files.createTempDirectory("jetsink-ingest-bench");
        String section;
        try (BenchBroker server = BenchBroker.start(BenchBroker.replicas(opts));
             Connection admin = server.connect();
             Connection rawConnection = server.connect()) {
            section = server.section("ingest");
            boolean r1 = server.replicas() == 1;
            r.put("replicas", server.replicas());
            Streams.create(admin, server.replicated(StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofSeconds(274))).build());
            Streams.create(admin, server.replicated(StreamSpec.of(RAW_STREAM, RAW_SUBJECT).duplicateWindow(Duration.ofSeconds(274))).build());
            Wrk wrk = Wrk.posting(Path.of(opts.get("wrk")), body, work);
            try (DaemonProcess daemon = DaemonProcess.start(Path.of(opts.get("jar")), server.url(), STREAM, SUBJECT,
                Files.createDirectories(work.resolve("queue")), List.of())) {
                // A daemon runs for days: the warm-up lets the JIT finish compiling the hot paths, which on
                // two busy cores takes about 20 s (C2 still used a fifth of the daemon's CPU after 10 s).
                System.out.println("warm-up jetsink  " + wrk.run(daemon.host(), daemon.port(), 20).summary());
                awaitDrained(daemon);
                if (opts.containsKey("order-only")) {
                    // ORDER=key beside the default, merged into the section a full run wrote
                    Map<String, Object> order = IngestOrder.measure(Path.of(opts.get("jar")), server.url(), admin,
                        Path.of(opts.get("wrk")), body, work, seconds, rounds);
                    ObjectMapper json = new ObjectMapper();
                    ObjectNode root = (ObjectNode) json.readTree(out.toFile());
                    ((ObjectNode) root.path(section)).set("order_key_vs_default", json.valueToTree(order));
                    json.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), root);
                    System.out.println("--order-only: wrote order_key_vs_default of section " + section + " of " + out);
                    return;
                }
                if (opts.containsKey("only-jetsink")) {
                    jetsink(daemon, admin, wrk, seconds, opts.get("jfr"));
                    System.out.println("--only-jetsink: nothing else measured, results not written");
                    return;
                }
                System.out.println("warm-up raw      " + RawPublishLoad.run(rawConnection, RAW_SUBJECT, body, Duration.ofSeconds(3)).summary());
                Map<String, List<Double>> f = new LinkedHashMap<>();
                // nginx and the slow clients measure the HTTP front, the same on R1 and R3: R1 only
                int sides = r1 ? 3 : 2;
                try (NginxServer nginx = r1 ? NginxServer.start(Path.of(opts.get("nginx")), work.resolve("nginx")) : null) {
                    for (int round = 0; round < rounds; round++) {
                        // each side goes first, second and last in turn
                        for (int turn = 0; turn < sides; turn++) {
                            switch ((round + turn) % sides) {
                                case 0 -> jetsink(daemon, admin, wrk, seconds, null).into(f);
                                case 1 -> raw(admin, rawConnection, body, seconds, f);
                                default -> nginx(nginx, wrk, seconds, f);
                            }
                        }
                    }
                }
                figures(f, r);
                if (r1) {
                    // The baseline p99 must be the daemon's, not a queue: offer at most half what it sustained.
                    int rate = (int) Math.min(stallRate, Spread.median(f.get("jetsink_rps")) / 2);
                    r.put("stall_rate_requested", stallRate);
                    SlowClientCheck.run(daemon, body, rate, stallSeconds, stallRounds, stalled, r);
                    r.put("order_key_vs_default", IngestOrder.measure(Path.of(opts.get("jar")), server.url(), admin,
                        Path.of(opts.get("wrk")), body, work, seconds, rounds));
                }
            }
        } finally {
            BenchFiles.deleteTree(work);
        }
        System.out.printf("%njetsink ingest %s requests/s = %s of raw publish, %s of nginx; daemon CPU %s us per request "
                + "(goal <= 50); stalled-connection p99 %s x baseline (goal <= 2)%n", text(r, "jetsink_rps"),
            text(r, "ratio_vs_raw"), r.containsKey("ratio_vs_nginx") ? text(r, "ratio_vs_nginx") : "-",
            text(r, "jetsink_daemon_cpu_us_per_request"), r.getOrDefault("stall_p99_ratio", "-"));
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = Files.exists(out) ? (ObjectNode) json.readTree(out.toFile()) : json.createObjectNode();
        root.set(section, json.valueToTree(r));
        json.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), root);
        System.out.println("wrote section " + section + " of " + out);
    }

    /** Every figure's spread, and the ratios as medians of per-round ratios. */
    private static void figures(Map<String, List<Double>> f, Map<String, Object> r) {
        f.put("ratio_vs_raw", Spread.ratios(f.get("jetsink_rps"), f.get("raw_eps")));
        if (f.containsKey("nginx_rps")) {
            f.put("ratio_vs_nginx", Spread.ratios(f.get("jetsink_rps"), f.get("nginx_rps")));
        }
        f.forEach((name, values) -> r.put(name, Spread.of(values, name.startsWith("ratio") ? 2 : 1)));
    }

    @SuppressWarnings("unchecked")
    private static String text(Map<String, Object> r, String name) {
        Map<String, Object> s = (Map<String, Object>) r.get(name);
        return s.get("median") + " (" + s.get("min") + "-" + s.get("max") + ")";
    }

    /** One measured jetsink run. */
    record JetsinkRun(double rps, double cpuMicros, double p50Ms, double p99Ms, double pressure, long non2xx,
                              long socketErrors, double drainSeconds) {
        void into(Map<String, List<Double>> f) {
            add(f, "jetsink_rps", rps);
            add(f, "jetsink_daemon_cpu_us_per_request", cpuMicros);
            add(f, "jetsink_p50_ms", p50Ms);
            add(f, "jetsink_p99_ms", p99Ms);
            add(f, "jetsink_cpu_pressure_pct", pressure);
            add(f, "jetsink_non_2xx", non2xx);
            add(f, "jetsink_socket_errors", socketErrors);
            add(f, "drain_after_wrk_s", drainSeconds);
        }
    }

    private static void add(Map<String, List<Double>> f, String name, double value) {
        f.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
    }

    /**
     * wrk against the daemon, then waits for its queue to drain and compares three counts: wrk's
     * 2xx responses, the events the daemon accepted, the messages the stream gained. Any difference
     * ends the bench.
     */
    static JetsinkRun jetsink(DaemonProcess daemon, Connection admin, Wrk wrk, int seconds, String jfr)
        throws Exception {
        long storedBefore = Streams.state(admin, STREAM).getMsgCount();
        long acceptedBefore = (long) daemon.metric(ACCEPTED);
        if (jfr != null) {
            jcmd(daemon.pid(), "JFR.start", "name=ingest", "settings=default");
        }
        double cpuBefore = daemon.cpuSeconds();
        Wrk.Result w = wrk.run(daemon.host(), daemon.port(), seconds);
        double daemonCpu = daemon.cpuSeconds() - cpuBefore;
        if (jfr != null) {
            jcmd(daemon.pid(), "JFR.stop", "name=ingest", "filename=" + Path.of(jfr).toAbsolutePath());
            System.out.println("flight recording of the measured run: " + jfr);
        }
        // CPU per request moves less with the host's other load than the rate does.
        double cpuMicros = daemonCpu * 1e6 / Math.max(1, w.requests());
        double drainSecs = awaitDrained(daemon);
        long accepted = (long) daemon.metric(ACCEPTED) - acceptedBefore;
        long stored = Streams.state(admin, STREAM).getMsgCount() - storedBefore;
        // wrk stops at its deadline without reading the answers still in flight (one per connection
        // at most): the daemon accepted and stored those events, wrk did not count them.
        boolean consistent = stored == accepted && accepted >= w.ok() && accepted - w.ok() <= Wrk.CONNECTIONS;
        System.out.printf("jetsink          %s%n                 daemon CPU %.1f s = %.0f us per request; wrk 2xx %d, "
                + "daemon accepted %d, stream gained %d (%s; queue drained %.1f s after wrk ended)%n", w.summary(), daemonCpu,
            cpuMicros, w.ok(), accepted, stored, consistent ? "consistent" : "INCONSISTENT", drainSecs);
        if (!consistent) {
            throw new IllegalStateException("the stream does not hold what the daemon accepted");
        }
        return new JetsinkRun(w.requestsPerSecond(), cpuMicros, w.p50Ms(), w.p99Ms(), w.cpuPressurePct(), w.non2xx(),
            w.socketErrors(), drainSecs);
    }

    private static void raw(Connection admin, Connection c, byte[] body, int seconds, Map<String, List<Double>> f)
        throws Exception {
        long before = Streams.state(admin, RAW_STREAM).getMsgCount();
        RawPublishLoad.Result p = RawPublishLoad.run(c, RAW_SUBJECT, body, Duration.ofSeconds(seconds));
        long stored = Streams.state(admin, RAW_STREAM).getMsgCount() - before;
        System.out.println("raw publish      " + p.summary() + "; stream holds " + stored + " new messages");
        if (stored != p.acked() || p.errors() > 0) {
            throw new IllegalStateException("raw publish: " + p.acked() + " acked, " + stored + " stored, "
                + p.errors() + " errors");
        }
        add(f, "raw_eps", p.eventsPerSecond());
        add(f, "raw_cpu_pressure_pct", p.cpuPressurePct());
    }

    private static void nginx(NginxServer nginx, Wrk wrk, int seconds, Map<String, List<Double>> f) throws Exception {
        Wrk.Result w = wrk.run("127.0.0.1", nginx.port(), seconds);
        System.out.println("nginx return 200 " + w.summary());
        add(f, "nginx_rps", w.requestsPerSecond());
        add(f, "nginx_p99_ms", w.p99Ms());
        add(f, "nginx_cpu_pressure_pct", w.cpuPressurePct());
    }

    /** Waits for the daemon's queue to be empty and its intake still; returns the seconds until they last moved. */
    static double awaitDrained(DaemonProcess daemon) throws Exception {
        long start = System.nanoTime();
        return (daemon.awaitSettled(ACCEPTED, QUEUE_LENGTH) - start) / 1e9;
    }

    private static void jcmd(long pid, String... command) throws Exception {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        List<String> cmd = new ArrayList<>(List.of(jcmd, Long.toString(pid)));
        cmd.addAll(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("jcmd " + String.join(" ", command) + " failed: " + out);
        }
    }

    /** The MinIO webhook body of an {@code s3:ObjectCreated:Put} (the shape RustFS sends too). */
    private static byte[] body() throws IOException {
        try (InputStream in = IngestBench.class.getResourceAsStream("minio-notify-put.json")) {
            if (in == null) {
                throw new IllegalStateException("minio-notify-put.json missing from the bench classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip().getBytes(StandardCharsets.UTF_8);
        }
    }

}

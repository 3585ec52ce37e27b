package dev.jetsink.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.PushSubscribeOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * docs/BENCHMARKS.md "Steady state": steady state at a fixed offered rate through the HTTP ingest
 * of a real {@code jetsink serve} child process (the shipped jar, the launcher's default heap) on
 * the JetStream path. Each event's latency is the time from sending its request to the moment the
 * stream stored it (the server's timestamp of the stored message, which is when the PubAck is
 * sent), so it covers HTTP, the durable enqueue, dispatch and the publish.
 *
 * <p>Latency here follows the disk: every answer waits for an fsync. So each round first measures
 * the disk's own fsync (4 KiB written and forced, in the queue's directory) and reports its p99
 * beside the product's, and with {@code --compare-jar} an older build runs in alternate rounds on
 * the same host in the same hour: a reader compares builds, not hours.
 *
 * <p>To say where a slow event spent its time, each round also splits the latency at the HTTP
 * answer (the durable enqueue is done then; what follows is dispatch and the broker), reads the
 * daemon's GC pauses over the measured events from its {@code /metrics}, and counts every event's
 * latency into log-spaced buckets: the section's {@code histogram} (all rounds of this build
 * together), drawn by {@link LatencyChart} as {@code docs/bench-latency.svg}.
 *
 * <p>Usage: {@code LatencyBench --jar server/target/jetsink.jar --out RESULTS.json [--rate 10000]
 * [--seconds 20] [--rounds 3] [--compare-jar OLDER.jar]}.
 */
public final class LatencyBench {

    private static final String STREAM = "LATENCY";
    private static final String SUBJECT = "bench.latency";
    private static final int WARM_UP_SECONDS = 10;
    private static final int FSYNC_SAMPLES = 500;
    private static final Pattern KEY = Pattern.compile("\"Key\":\"bench/lat-(\\d+)\"");

    private LatencyBench() {
    }

    /** One round's figures, in milliseconds (pressure in percent). */
    private record Round(double p50, double p99, double max, double httpP50, double httpP99, double afterAnswerP99,
                         double fsyncP50, double fsyncP99, double gcPauses, double gcPauseMs, double pressure,
                         long stored, long failures, long[] histogram) {
    }

    /** Buckets per doubling of the latency histogram, and its first upper bound in ms. */
    private static final int BUCKETS_PER_DOUBLING = 4;
    private static final double FIRST_BOUND_MS = 0.125;
    private static final int BUCKETS = 14 * BUCKETS_PER_DOUBLING; // up to 2 s; the last also holds anything slower

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    public static void main(String[] args) throws Exception {
        Path jar = null;
        Path compareJar = null;
        Path out = null;
        int rate = 10_000;
        int seconds = 20;
        int rounds = 3;
        int replicas = 1;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--jar" -> jar = Path.of(args[i + 1]);
                case "--compare-jar" -> compareJar = Path.of(args[i + 1]);
                case "--out" -> out = Path.of(args[i + 1]);
                case "--rate" -> rate = Integer.parseInt(args[i + 1]);
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--replicas" -> replicas = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (jar == null || out == null) {
            throw new IllegalArgumentException("usage: LatencyBench --jar JAR --out RESULTS.json [--rate N] [--seconds S]"
                + " [--rounds R] [--compare-jar OLDER.jar] [--replicas 1|3]");
        }
        Path work = Files.createTempDirectory("jetsink-latency-bench");
        Map<String, List<Round>> byBuild = new LinkedHashMap<>();
        String sectionName;
        try (BenchBroker server = BenchBroker.start(replicas);
             Connection admin = server.connect()) {
            // the goal's rate is "latency"; another rate gets its own section (latency_2000, latency_2000_r3)
            sectionName = server.section(rate == 10_000 ? "latency" : "latency_" + rate);
            for (int r = 1; r <= rounds; r++) {
                for (Path build : compareJar == null ? List.of(jar) : List.of(jar, compareJar)) {
                    String name = build == jar ? "jetsink" : "older";
                    Round round = round(server, admin, build, work.resolve(name + "-" + r), rate, seconds);
                    byBuild.computeIfAbsent(name, k -> new ArrayList<>()).add(round);
                    System.out.printf("round %d %s (%s): request->stored p50 %.2f ms p99 %.2f ms max %.1f ms; HTTP p50 %.2f"
                            + " ms p99 %.2f ms; answer->stored p99 %.2f ms; GC %.0f pauses, %.0f ms in all; disk fsync"
                            + " p50 %.2f ms p99 %.2f ms; %d stored, %d HTTP failures; cpu pressure %.1f %%%n", r, name,
                        build.getFileName(), round.p50(), round.p99(), round.max(), round.httpP50(), round.httpP99(),
                        round.afterAnswerP99(), round.gcPauses(), round.gcPauseMs(), round.fsyncP50(), round.fsyncP99(),
                        round.stored(), round.failures(), round.pressure());
                }
            }
        } finally {
            BenchFiles.deleteTree(work);
        }
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("replicas", replicas);
        section.put("offered_eps", rate);
        section.put("seconds", seconds);
        section.put("rounds", rounds);
        section.put("events_per_round", rate * seconds);
        section.put("jar", jar.getFileName().toString());
        if (compareJar != null) {
            section.put("compare_jar", compareJar.toString());
        }
        long perRound = (long) rate * seconds;
        byBuild.forEach((name, rs) -> {
            String prefix = name.equals("jetsink") ? "" : name + "_";
            section.put(prefix + "p50_ms", Spread.of(rs.stream().map(Round::p50).toList(), 2));
            section.put(prefix + "p99_ms", Spread.of(rs.stream().map(Round::p99).toList(), 2));
            section.put(prefix + "max_ms", Spread.of(rs.stream().map(Round::max).toList(), 1));
            section.put(prefix + "http_p50_ms", Spread.of(rs.stream().map(Round::httpP50).toList(), 2));
            section.put(prefix + "http_p99_ms", Spread.of(rs.stream().map(Round::httpP99).toList(), 2));
            section.put(prefix + "answer_to_stored_p99_ms", Spread.of(rs.stream().map(Round::afterAnswerP99).toList(), 2));
            section.put(prefix + "gc_pauses", Spread.of(rs.stream().map(Round::gcPauses).toList(), 0));
            section.put(prefix + "gc_pause_total_ms", Spread.of(rs.stream().map(Round::gcPauseMs).toList(), 1));
            section.put(prefix + "disk_fsync_p50_ms", Spread.of(rs.stream().map(Round::fsyncP50).toList(), 2));
            section.put(prefix + "disk_fsync_p99_ms", Spread.of(rs.stream().map(Round::fsyncP99).toList(), 2));
            section.put(prefix + "cpu_pressure_pct", Spread.of(rs.stream().map(Round::pressure).toList(), 1));
            section.put(prefix + "http_failures", rs.stream().mapToLong(Round::failures).sum());
            section.put(prefix + "unstored", rs.stream().mapToLong(x -> perRound - x.stored()).sum());
            List<Map<String, Object>> histogram = new ArrayList<>();
            for (int b = 0; b < BUCKETS; b++) {
                int bucket = b;
                long count = rs.stream().mapToLong(x -> x.histogram()[bucket]).sum();
                histogram.add(Map.of("le_ms", b == BUCKETS - 1 ? "+Inf" : (Object) bound(b), "count", count));
            }
            section.put(prefix + "histogram", histogram);
        });
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = Files.exists(out) ? (ObjectNode) json.readTree(out.toFile()) : json.createObjectNode();
        root.set(sectionName, json.valueToTree(section));
        json.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), root);
        System.out.printf("medians of %d rounds at %d events/s: p50 %s ms, p99 %s ms, disk fsync p99 %s ms%n", rounds, rate,
            ((Map<?, ?>) section.get("p50_ms")).get("median"), ((Map<?, ?>) section.get("p99_ms")).get("median"),
            ((Map<?, ?>) section.get("disk_fsync_p99_ms")).get("median"));
        System.out.println("wrote section " + sectionName + " of " + out);
    }

    /** A fresh stream and daemon, the disk's fsync, a warm-up, then the measured events. */
    private static Round round(BenchBroker server, Connection admin, Path jar, Path dir, int rate, int seconds)
            throws Exception {
        Files.createDirectories(dir);
        try {
            admin.jetStreamManagement().deleteStream(STREAM);
        } catch (io.nats.client.JetStreamApiException e) {
            // the first round: no stream yet
        }
        Streams.create(admin, server.replicated(StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofSeconds(274))).build());
        double[] fsync = fsyncMillis(dir);
        try (DaemonProcess daemon = DaemonProcess.start(jar, server.url(), STREAM, SUBJECT, dir, List.of())) {
            int total = rate * seconds;
            long[] sentAtMicros = new long[total];
            long[] httpMicros = new long[total];
            AtomicLong failures = new AtomicLong();
            // Warm the daemon's JIT first (events numbered past the measured ones are ignored).
            int warm = rate * WARM_UP_SECONDS;
            RawHttpLoad.run(daemon.host(), daemon.port(), rate, warm, i -> body(total + i),
                new long[warm], new long[warm], new AtomicLong());
            double gcBefore = daemon.metric("jvm_gc_pause_seconds_count");
            double gcSecondsBefore = daemon.metric("jvm_gc_pause_seconds_sum");
            CpuPressure before = CpuPressure.sample();
            RawHttpLoad.run(daemon.host(), daemon.port(), rate, total, LatencyBench::body, sentAtMicros, httpMicros,
                failures);
            double pressure = CpuPressure.sample().percentSince(before).orElse(-1);
            double gcPauses = daemon.metric("jvm_gc_pause_seconds_count") - gcBefore;
            double gcMs = (daemon.metric("jvm_gc_pause_seconds_sum") - gcSecondsBefore) * 1000;
            long[] storedAtMicros = readStoreTimes(admin, total);
            long[] latency = new long[total];
            long[] afterAnswer = new long[total];
            long[] histogram = new long[BUCKETS];
            int seen = 0;
            for (int i = 0; i < total; i++) {
                if (storedAtMicros[i] > 0) {
                    afterAnswer[seen] = Math.max(0, storedAtMicros[i] - sentAtMicros[i] - httpMicros[i]);
                    latency[seen] = storedAtMicros[i] - sentAtMicros[i];
                    histogram[bucket(latency[seen])]++;
                    seen++;
                }
            }
            long[] lat = Arrays.copyOf(latency, seen);
            Arrays.sort(lat);
            long[] after = Arrays.copyOf(afterAnswer, seen);
            Arrays.sort(after);
            long[] httpSorted = httpMicros.clone();
            Arrays.sort(httpSorted);
            return new Round(pct(lat, 0.50), pct(lat, 0.99), lat.length == 0 ? 0 : lat[lat.length - 1] / 1000.0,
                pct(httpSorted, 0.50), pct(httpSorted, 0.99), pct(after, 0.99), fsync[0], fsync[1], gcPauses, gcMs,
                pressure, seen, failures.get(), histogram);
        }
    }

    /** p50 and p99 of writing 4 KiB and forcing it ({@code fdatasync}) in {@code dir}, in ms. */
    static double[] fsyncMillis(Path dir) throws IOException {
        Path file = dir.resolve("fsync-probe");
        long[] micros = new long[FSYNC_SAMPLES];
        ByteBuffer block = ByteBuffer.allocate(4096);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            for (int i = 0; i < micros.length; i++) {
                block.clear();
                long t0 = System.nanoTime();
                ch.write(block, (long) i * block.capacity());
                ch.force(false);
                micros[i] = (System.nanoTime() - t0) / 1000;
            }
        } finally {
            Files.deleteIfExists(file);
        }
        Arrays.sort(micros);
        return new double[] {pct(micros, 0.50), pct(micros, 0.99)};
    }

    static byte[] body(int n) {
        String body = "{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"bench/lat-" + n + "\",\"Records\":[{"
            + "\"eventVersion\":\"2.1\",\"eventSource\":\"rustfs:s3\",\"eventName\":\"s3:ObjectCreated:Put\","
            + "\"eventTime\":\"2026-12-02T10:00:00.000Z\",\"s3\":{\"bucket\":{\"name\":\"bench\"},"
            + "\"object\":{\"key\":\"lat-" + n + "\",\"size\":1024,\"eTag\":\"d41d8cd98f00b204e9800998ecf8427e\","
            + "\"contentType\":\"application/octet-stream\"}},\"pad\":\"" + "x".repeat(640) + "\"}]}";
        return body.getBytes(StandardCharsets.UTF_8);
    }

    /** The stream's store time of every measured event (warm-up events have negative ids). */
    private static long[] readStoreTimes(Connection admin, int total) throws Exception {
        long[] stored = new long[total];
        JetStream js = admin.jetStream();
        JetStreamSubscription sub = js.subscribe(SUBJECT, PushSubscribeOptions.builder().ordered(true).build());
        long expected = Streams.state(admin, STREAM).getMsgCount();
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        for (long read = 0; read < expected && System.nanoTime() < deadline; ) {
            Message msg = sub.nextMessage(Duration.ofSeconds(5));
            if (msg == null) {
                expected = Streams.state(admin, STREAM).getMsgCount();
                continue;
            }
            read++;
            Matcher m = KEY.matcher(new String(msg.getData(), StandardCharsets.UTF_8));
            if (m.find()) {
                int n = Integer.parseInt(m.group(1));
                if (n < total) {
                    stored[n] = micros(msg.metaData().timestamp().toInstant());
                }
            }
        }
        sub.unsubscribe();
        return stored;
    }

    /** The upper bound of bucket {@code b}, in ms: {@value #FIRST_BOUND_MS} ms times 2^(b/4). */
    static double bound(int b) {
        return Math.round(FIRST_BOUND_MS * Math.pow(2, (double) b / BUCKETS_PER_DOUBLING) * 1000) / 1000.0;
    }

    /** The bucket a latency of {@code micros} falls in: the first whose bound it does not exceed. */
    static int bucket(long micros) {
        for (int b = 0; b < BUCKETS - 1; b++) {
            if (micros <= bound(b) * 1000) {
                return b;
            }
        }
        return BUCKETS - 1;
    }

    private static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
    }

    private static double pct(long[] sortedMicros, double q) {
        if (sortedMicros.length == 0) {
            return 0;
        }
        int i = (int) Math.min(sortedMicros.length - 1, Math.ceil(q * sortedMicros.length) - 1);
        return Math.round(sortedMicros[Math.max(0, i)] / 10.0) / 100.0;
    }
}

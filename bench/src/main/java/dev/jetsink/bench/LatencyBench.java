package dev.jetsink.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.PushSubscribeOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
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
 * <p>Usage: {@code LatencyBench --jar server/target/jetsink.jar --out RESULTS.json [--rate 5000]
 * [--seconds 30]}.
 */
public final class LatencyBench {

    private static final String STREAM = "LATENCY";
    private static final String SUBJECT = "bench.latency";
    private static final int WARM_UP_SECONDS = 10;
    private static final Pattern KEY = Pattern.compile("\"Key\":\"bench/lat-(\\d+)\"");

    private LatencyBench() {
    }

    public static void main(String[] args) throws Exception {
        Path jar = null;
        Path out = null;
        int rate = 5000;
        int seconds = 30;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--jar" -> jar = Path.of(args[i + 1]);
                case "--out" -> out = Path.of(args[i + 1]);
                case "--rate" -> rate = Integer.parseInt(args[i + 1]);
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (jar == null || out == null) {
            throw new IllegalArgumentException("usage: LatencyBench --jar JAR --out RESULTS.json [--rate N] [--seconds S]");
        }
        Path work = Files.createTempDirectory("jetsink-latency-bench");
        try (NatsServer server = NatsServer.builder().build().start();
             Connection admin = Nats.connect(server.url())) {
            Streams.create(admin, StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofSeconds(274)).build());
            try (DaemonProcess daemon = DaemonProcess.start(jar, server.url(), STREAM, SUBJECT, work, List.of())) {
                measure(daemon, admin, rate, seconds, out);
            }
        } finally {
            BenchFiles.deleteTree(work);
        }
    }

    private static void measure(DaemonProcess daemon, Connection admin, int rate, int seconds, Path out) throws Exception {
        int total = rate * seconds;
        long[] sentAtMicros = new long[total];
        long[] httpMicros = new long[total];
        AtomicLong failures = new AtomicLong();
        // Warm the daemon's JIT first (events numbered past the measured ones are ignored).
        int warm = rate * WARM_UP_SECONDS;
        RawHttpLoad.run(daemon.host(), daemon.port(), rate, warm, i -> body(total + i),
            new long[warm], new long[warm], new AtomicLong());
        double offeredSecs = RawHttpLoad.run(daemon.host(), daemon.port(), rate, total,
            LatencyBench::body, sentAtMicros, httpMicros, failures);
        long[] storedAtMicros = readStoreTimes(admin, total);
        long[] latency = new long[total];
        int seen = 0;
        for (int i = 0; i < total; i++) {
            if (storedAtMicros[i] > 0) {
                latency[seen++] = storedAtMicros[i] - sentAtMicros[i];
            }
        }
        long[] lat = Arrays.copyOf(latency, seen);
        Arrays.sort(lat);
        long[] httpSorted = httpMicros.clone();
        Arrays.sort(httpSorted);
        ObjectNode section = new ObjectMapper().createObjectNode();
        section.put("offered_eps", rate);
        section.put("achieved_offer_eps", Math.round(total / offeredSecs));
        section.put("seconds", seconds);
        section.put("events", total);
        section.put("stored", seen);
        section.put("http_failures", failures.get());
        section.put("p50_ms", pct(lat, 0.50));
        section.put("p99_ms", pct(lat, 0.99));
        section.put("max_ms", lat.length == 0 ? 0 : lat[lat.length - 1] / 1000.0);
        section.put("http_p50_ms", pct(httpSorted, 0.50));
        section.put("http_p99_ms", pct(httpSorted, 0.99));
        System.out.printf("offered %d events/s for %d s (achieved offer %.0f/s): %d stored, %d HTTP failures; "
                + "request->stored p50 %.2f ms p99 %.2f ms; HTTP 200 p50 %.2f ms p99 %.2f ms%n",
            rate, seconds, total / offeredSecs, seen, failures.get(), pct(lat, 0.50), pct(lat, 0.99),
            pct(httpSorted, 0.50), pct(httpSorted, 0.99));
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = Files.exists(out) ? (ObjectNode) json.readTree(out.toFile()) : json.createObjectNode();
        root.set("latency", section);
        json.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), root);
        System.out.println("wrote section latency of " + out);
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

package dev.jetsink.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.internal.config.ConfigLoader;
import dev.jetsink.internal.config.LoadedConfig;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.queue.QueueOptions;
import dev.jetsink.internal.queue.SegmentedQueue;
import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.internal.targets.TargetRuntime;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.LifecycleListener;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * docs/BENCHMARKS.md "Recovery": a queue of 180 000 live 1 KiB entries (50 events/s through a
 * one-hour outage, the sizing example of OPERATIONS.md section 5) is opened by a fresh JVM with the
 * launcher's default heap ({@code -Xmx256m}), which then drains it to a local nats-server. Reports
 * the open time and the process's peak RSS while draining.
 *
 * <p>Usage: {@code RecoveryBench --out RESULTS.json [--entries N]}; the child role is internal.
 */
public final class RecoveryBench {

    private static final String STREAM = "RECOVERY";
    private static final String SUBJECT = "bench.recovery";
    private static final int EVENT_BYTES = 1024;
    /** What {@code bin/jetsink} passes to java when {@code JAVA_OPTS} is unset. */
    private static final String CHILD_OPTS = "-Xmx192m";

    private RecoveryBench() {
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--child")) {
            child(Path.of(args[1]), args[2], Integer.parseInt(args[3]));
            return;
        }
        Path out = null;
        int entries = 180_000;
        int rounds = 3;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--out" -> out = Path.of(args[i + 1]);
                case "--entries" -> entries = Integer.parseInt(args[i + 1]);
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (out == null) {
            throw new IllegalArgumentException("usage: RecoveryBench --out RESULTS.json [--entries N] [--rounds R]");
        }
        Path work = Files.createTempDirectory("jetsink-recovery-bench");
        try (NatsServer server = NatsServer.builder().build().start();
             Connection admin = Nats.connect(server.url())) {
            List<Double> openMs = new ArrayList<>();
            List<Double> rssMib = new ArrayList<>();
            List<Double> drainEps = new ArrayList<>();
            List<Double> pressure = new ArrayList<>();
            ObjectNode result = null;
            for (int round = 1; round <= rounds; round++) {
                Streams.create(admin, StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofSeconds(274)).build());
                Path dir = work.resolve("round-" + round);
                long fillStart = System.nanoTime();
                fill(dir.resolve("notify-nats-_"), entries);
                System.out.printf("round %d: filled %d entries of %d B in %.1f s%n", round, entries, EVENT_BYTES,
                    (System.nanoTime() - fillStart) / 1e9);
                CpuPressure start = CpuPressure.sample();
                result = runChild(dir, server.url(), entries);
                pressure.add(CpuPressure.sample().percentSince(start).orElse(-1));
                long stored = Streams.state(admin, STREAM).getMsgCount();
                if (stored != entries) {
                    throw new IllegalStateException("stream holds " + stored + " messages, expected " + entries);
                }
                System.out.printf("round %d: open %d ms, peak RSS %d MiB while draining (%d events/s), JVM options %s, %s%n",
                    round, result.get("open_ms").asLong(), result.get("peak_rss_mib").asLong(),
                    result.get("drain_eps").asLong(), result.get("jvm_options").asText(), CpuPressure.sample().textSince(start));
                openMs.add(result.get("open_ms").asDouble());
                rssMib.add(result.get("peak_rss_mib").asDouble());
                drainEps.add(result.get("drain_eps").asDouble());
                Streams.delete(admin, STREAM);
                BenchFiles.deleteTree(dir);
            }
            ObjectMapper spreads = new ObjectMapper();
            result.put("rounds", rounds);
            result.set("open_ms", spreads.valueToTree(Spread.of(openMs, 0)));
            result.set("peak_rss_mib", spreads.valueToTree(Spread.of(rssMib, 0)));
            result.set("drain_eps", spreads.valueToTree(Spread.of(drainEps, 0)));
            result.set("cpu_pressure_pct", spreads.valueToTree(Spread.of(pressure, 0)));
            ObjectMapper json = new ObjectMapper();
            ObjectNode root = Files.exists(out) ? (ObjectNode) json.readTree(out.toFile()) : json.createObjectNode();
            root.set("recovery", result);
            Files.createDirectories(out.toAbsolutePath().getParent());
            json.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), root);
            System.out.println("wrote section recovery of " + out);
        } finally {
            BenchFiles.deleteTree(work);
        }
    }

    /** Appends the backlog from 64 producers, as request threads would have during an outage. */
    private static void fill(Path dir, int entries) throws Exception {
        byte[] payload = new byte[EVENT_BYTES];
        java.util.Arrays.fill(payload, (byte) 'x');
        EventMetadata meta = new EventMetadata(TargetKind.NOTIFY, "bench", "obj", "s3:ObjectCreated:Put", "");
        try (SegmentedQueue q = SegmentedQueue.open(dir, QueueOptions.withLimit(entries))) {
            List<Thread> producers = new ArrayList<>();
            AtomicLong next = new AtomicLong();
            for (int t = 0; t < 64; t++) {
                Thread p = new Thread(() -> {
                    while (next.getAndIncrement() < entries) {
                        q.append(meta, payload).join();
                    }
                });
                producers.add(p);
                p.start();
            }
            for (Thread p : producers) {
                p.join();
            }
        }
    }

    private static ObjectNode runChild(Path work, String url, int entries) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // The measured JVM gets the launcher's default options unless bench.childOpts overrides them.
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(List.of(System.getProperty("bench.childOpts", CHILD_OPTS).trim().split("\\s+")));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"),
            RecoveryBench.class.getName(), "--child", work.toString(), url, Integer.toString(entries)));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        ObjectNode result = null;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith("RESULT ")) {
                    result = (ObjectNode) new ObjectMapper().readTree(line.substring(7));
                }
            }
        }
        if (p.waitFor() != 0 || result == null) {
            throw new IllegalStateException("recovery child failed with exit " + p.exitValue());
        }
        result.put("entries", entries);
        result.put("event_bytes", EVENT_BYTES);
        result.put("jvm_options", System.getProperty("bench.childOpts", CHILD_OPTS));
        return result;
    }

    /** The measured process: open the queue, drain it, report open time and peak RSS. */
    private static void child(Path work, String url, int entries) throws Exception {
        CountDownLatch drained = new CountDownLatch(entries);
        LifecycleListener counter = new LifecycleListener() {
            @Override
            public void entryResolved(LifecycleEvent.EntryResolved e) {
                drained.countDown();
            }
        };
        AtomicLong peakRss = new AtomicLong(rssKib());
        Thread sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                peakRss.accumulateAndGet(rssKib(), Math::max);
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.setDaemon(true);
        sampler.start();
        TargetRuntime runtime = TargetRuntime.system().withListener(counter);
        long openStart = System.nanoTime();
        try (NatsTarget target = NatsTarget.open(config(work, url, entries), runtime)) {
            long openMs = (System.nanoTime() - openStart) / 1_000_000;
            if (target.queueLength() != entries) {
                throw new IllegalStateException("reopened queue holds " + target.queueLength());
            }
            long start = System.nanoTime();
            target.start();
            if (!drained.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("not drained; left " + target.queueLength());
            }
            double secs = (System.nanoTime() - start) / 1e9;
            sampler.interrupt();
            long hwm = statusKib("VmHWM:");
            long peak = Math.max(peakRss.get(), hwm);
            System.out.println("RESULT {\"open_ms\":" + openMs + ",\"peak_rss_mib\":" + (peak / 1024)
                + ",\"drain_eps\":" + Math.round(entries / secs) + "}");
        }
        runtime.scheduler().shutdownNow();
    }

    private static TargetConfig config(Path work, String url, int entries) {
        Map<String, String> env = new HashMap<>();
        TargetKind kind = TargetKind.NOTIFY;
        env.put(kind.variable("enable"), "on");
        env.put(kind.variable("address"), url);
        env.put(kind.variable("subject"), SUBJECT);
        env.put(kind.variable("jetstream_enable"), "on");
        env.put(kind.variable("jetstream_stream_name"), STREAM);
        env.put(kind.variable("queue_dir"), work.toString());
        env.put(kind.variable("queue_limit"), Integer.toString(entries));
        LoadedConfig loaded = ConfigLoader.load(env, Optional.empty());
        if (!loaded.valid()) {
            throw new IllegalStateException("bench config invalid: " + loaded.errors());
        }
        return loaded.config().activeTargets().get(0);
    }

    private static long rssKib() {
        return statusKib("VmRSS:");
    }

    /** A {@code /proc/self/status} field in KiB (Linux), 0 where unavailable. */
    private static long statusKib(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
                }
            }
        } catch (Exception e) {
            return 0;
        }
        return 0;
    }
}

package dev.jetsink.bench;

import ch.qos.logback.classic.Level;
import dev.jetsink.OrderMode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.internal.config.ConfigLoader;
import dev.jetsink.internal.config.LoadedConfig;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.delivery.StreamConcurrency;
import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.internal.targets.TargetRuntime;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.LifecycleListener;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.PublishOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.LoggerFactory;

/**
 * docs/BENCHMARKS.md "Backlog drain (JetStream path)" (and the publish window benchmark): a backlog
 * of 1 KiB events drained into a local JetStream file stream by (a) jetsink with the default
 * publish window, (b) jetsink with a window of 1, (c) the baseline peer (file per event,
 * synchronous publish, delete) and (d) raw jnats {@code publishAsync} with msg ids and a window of
 * 1024, and (e) jetsink with {@code ORDER=key} over a backlog of one event per object and (f) over
 * a backlog of one hot object. Real time throughout; prints events/s and ratios and writes them as JSON.
 *
 * <p>Usage: {@code DrainBench --out PATH [--events N] [--baseline-events M] [--rounds R]
 * [--kind notify|audit] [--notify-concurrency C] [--min-round-seconds S] [--hot-key-events H]
 * [--order-only yes]} (defaults
 * 180 000 — a one-hour outage at 50 events/s, the sizing example of OPERATIONS.md section 5 — N, 4,
 * notify, 20, 15, min(N, 30 000)). The ordered rounds (e) hold as many events as (a), (f) H. The rounds of jetsink (default window) and raw hold at least N events, and more when raw
 * publish would otherwise finish in under S seconds at its warm-up rate. Jetsink (both
 * windows) and raw run interleaved R times and their medians are compared; the baseline peer drains
 * its backlog once (it takes minutes). Its files are written without fsync and flushed with one
 * {@code sync} before the drain: the fill is not measured, and a crash-safe fill of 180 000 files
 * alone would take several minutes.
 */
public final class DrainBench {

    private static final String STREAM = "DRAIN";
    private static final String SUBJECT = "bench.drain";
    private static final int EVENT_BYTES = DrainBacklog.EVENT_BYTES;
    private static final int RAW_WINDOW = 1024;
    private static final int RAW_PAYLOADS = 65_536;
    private static final Duration DRAIN_LIMIT = Duration.ofMinutes(30);

    private final BenchBroker server;
    private final Connection admin;
    private final Path work;
    private final TargetKind kind;
    private final int notifyConcurrency;
    /**
     * The CPU this process spent per event in the last jetsink drain (the bench's own threads are
     * idle then: it is the target's), in µs; the broker's is not in it.
     */
    private double lastCpuMicros;
    private static final com.sun.management.OperatingSystemMXBean PROCESS =
        (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();

    private DrainBench(BenchBroker server, Connection admin, Path work, TargetKind kind, int notifyConcurrency) {
        this.server = server;
        this.admin = admin;
        this.work = work;
        this.kind = kind;
        this.notifyConcurrency = notifyConcurrency;
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    public static void main(String[] args) throws Exception {
        Map<String, String> opts = BenchOptions.parse(args);
        Path out = Path.of(Optional.ofNullable(opts.get("out")).orElseThrow(
            () -> new IllegalArgumentException("usage: DrainBench --out PATH [--events N] [--baseline-events M] [--rounds R]")));
        int n = Integer.parseInt(opts.getOrDefault("events", "180000"));
        int rounds = Integer.parseInt(opts.getOrDefault("rounds", "4"));
        int baselineN = Integer.parseInt(opts.getOrDefault("baseline-events", Integer.toString(n)));
        int minRoundSeconds = Integer.parseInt(opts.getOrDefault("min-round-seconds", "15"));
        // one object's events go one at a time (an ack's round trip each), as window 1 does
        int hotEvents = Integer.parseInt(opts.getOrDefault("hot-key-events", Integer.toString(Math.min(n, 30_000))));
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);

        Path work = Files.createTempDirectory("jetsink-drain-bench");
        try (BenchBroker server = BenchBroker.start(BenchBroker.replicas(opts));
             Connection admin = server.connect()) {
            Streams.create(admin, server.replicated(StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofSeconds(274))).build());
            boolean r1 = server.replicas() == 1;
            DrainBench bench = new DrainBench(server, admin, work,
                TargetKind.fromLabel(opts.getOrDefault("kind", "notify")),
                Integer.parseInt(opts.getOrDefault("notify-concurrency", "20")));
            System.out.printf("drain benchmark: %d events of %d B (baseline %d) into file stream %s, nats-server at %s, "
                + "%s target, notify stream concurrency %d, R%d%n", n, EVENT_BYTES, baselineN, STREAM, server.url(),
                bench.kind.label(), bench.notifyConcurrency, server.replicas());
            // A daemon drains with warmed-up code: jetsink's path needs a few 10^5 publishes of JIT
            // warm-up (measured: 38k -> 46k -> 69k events/s over three cold rounds), raw jnats far fewer.
            for (int w = 0; w < 3; w++) {
                bench.jetsink(Math.min(n, 50_000), 1024, "warm-up jetsink");
            }
            // The ordered path's own code (chains, table, journal) needs its warm-up too: without it the
            // first ordered round also paid its JIT (measured: C2 threads 2.3 against 0.8 µs per event).
            for (int w = 0; w < 3; w++) {
                bench.jetsink(Math.min(n, 50_000), 1024, OrderMode.KEY, new DrainBacklog(bench.kind, 0), "warm-up jetsink ORDER=key");
            }
            if (r1) {
                bench.jetsink(Math.min(n, 5_000), 1, "warm-up jetsink window 1");
            }
            double warmRaw = bench.raw(Math.min(n, 50_000), "warm-up raw");
            // Raw publish moves 180 000 events in under 2 s on a fast host: too short a round to compare.
            // The measured rounds hold enough events for raw publish to take minRoundSeconds at the
            // warm-up's rate, half again for margin since the warm-up runs colder (the slowest variant,
            // window 1, keeps --events: it runs for minutes anyway).
            int measured = (int) Math.min(Integer.MAX_VALUE, Math.max(n, (long) Math.ceil(1.5 * warmRaw * minRoundSeconds)));
            System.out.printf("measured rounds: %d events each (raw warm-up %.0f events/s, rounds of at least %d s)%n",
                measured, warmRaw, minRoundSeconds);
            // The host is shared and noisy: the fast variants run interleaved, rounds times,
            // and the medians are compared, so a burst of outside load hits them alike.
            List<Double> jetsinkRuns = new ArrayList<>();
            List<Double> window1Runs = new ArrayList<>();
            List<Double> rawRuns = new ArrayList<>();
            List<Double> orderedRuns = new ArrayList<>();
            List<Double> hotRuns = new ArrayList<>();
            List<Double> pressure = new ArrayList<>();
            if (opts.containsKey("order-only")) {
                orderOnly(bench, measured, rounds);
                return;
            }
            List<Double> defaultCpu = new ArrayList<>();
            List<Double> orderedCpu = new ArrayList<>();
            for (int r = 1; r <= rounds; r++) {
                CpuPressure start = CpuPressure.sample();
                // which goes first alternates: a round drains faster or slower after a large one (the
                // broker removes the purged stream's files meanwhile); an A/A run of the default in both
                // places measured 0.95 (0.77-1.06)
                boolean orderedFirst = r % 2 == 0;
                if (orderedFirst) {
                    bench.ordered(r, measured, hotEvents, orderedRuns, orderedCpu, hotRuns);
                }
                jetsinkRuns.add(bench.jetsink(measured, 1024, "jetsink publish_window=1024 (round " + r + ")"));
                defaultCpu.add(bench.lastCpuMicros);
                if (r1) {
                    // window 1 and the baseline peer are R1 comparisons; R3 measures what replication costs
                    window1Runs.add(bench.jetsink(n, 1, "jetsink publish_window=1 (round " + r + ")"));
                }
                rawRuns.add(bench.raw(measured, "raw jnats publishAsync window=1024 (round " + r + ")"));
                if (!orderedFirst) {
                    bench.ordered(r, measured, hotEvents, orderedRuns, orderedCpu, hotRuns);
                }
                pressure.add(CpuPressure.sample().percentSince(start).orElse(-1));
            }
            double baseline = r1 ? bench.baseline(baselineN) : Double.NaN;
            double jetsink = median(jetsinkRuns);
            double window1 = r1 ? median(window1Runs) : Double.NaN;
            double raw = median(rawRuns);
            List<Double> vsRaw = Spread.ratios(jetsinkRuns, rawRuns);
            List<Double> vsWindow1 = r1 ? Spread.ratios(jetsinkRuns, window1Runs) : List.of();
            List<Double> orderedVsDefault = Spread.ratios(orderedRuns, jetsinkRuns);
            List<Double> hotVsDefault = Spread.ratios(hotRuns, jetsinkRuns);

            Map<String, Object> drain = new LinkedHashMap<>();
            drain.put("replicas", server.replicas());
            drain.put("jetsink_eps", Spread.of(jetsinkRuns, 0));
            drain.put("raw_eps", Spread.of(rawRuns, 0));
            drain.put("ratio_vs_raw", Spread.of(vsRaw, 2));
            if (r1) {
                drain.put("baseline_eps", round(baseline));
                drain.put("window1_eps", Spread.of(window1Runs, 0));
                drain.put("ratio_vs_baseline", round2(jetsink / baseline));
                drain.put("ratio_vs_window1", Spread.of(vsWindow1, 2));
            }
            drain.put("ordered_eps", Spread.of(orderedRuns, 0));
            drain.put("ratio_ordered_vs_default", Spread.of(orderedVsDefault, 2));
            drain.put("default_cpu_us_per_event", Spread.of(defaultCpu, 1));
            drain.put("ordered_cpu_us_per_event", Spread.of(orderedCpu, 1));
            drain.put("hot_key_eps", Spread.of(hotRuns, 0));
            drain.put("ratio_hot_key_vs_default", Spread.of(hotVsDefault, 3));
            drain.put("hot_key_events", hotEvents);
            drain.put("cpu_pressure_pct", Spread.of(pressure, 0));
            drain.put("events", measured);
            drain.put("window1_events", n);
            drain.put("min_round_seconds", minRoundSeconds);
            drain.put("raw_round_seconds", Spread.of(rawRuns.stream().map(eps -> measured / eps).toList(), 1));
            drain.put("baseline_events", baselineN);
            drain.put("event_bytes", EVENT_BYTES);
            drain.put("rounds", rounds);
            drain.put("target_kind", bench.kind.label());
            drain.put("notify_stream_concurrency", bench.notifyConcurrency);
            System.out.printf("%nmedians of %d rounds: jetsink %.0f, raw %.0f events/s; jetsink vs raw jnats: %s (medians of"
                + " paired rounds, range in brackets); cpu pressure %s %%%n", rounds, jetsink, raw, Spread.text(vsRaw, "%.2f"),
                Spread.text(pressure, "%.0f"));
            System.out.printf("ORDER=key: one event per object %.0f events/s (%sx of default), every event one object %.0f"
                + " events/s (%sx); CPU per event (jetsink's process while draining) %s against %s us%n", median(orderedRuns),
                Spread.text(orderedVsDefault, "%.2f"), median(hotRuns), Spread.text(hotVsDefault, "%.3f"),
                Spread.text(orderedCpu, "%.1f"), Spread.text(defaultCpu, "%.1f"));
            if (r1) {
                System.out.printf("window 1 %.0f events/s, baseline peer %.0f events/s; window 1024 vs window 1: %sx, vs baseline"
                    + " peer: %.2fx%n", window1, baseline, Spread.text(vsWindow1, "%.2f"), jetsink / baseline);
            }
            // The results file keeps its other sections (queue, latency, ...) when this part reruns.
            ObjectMapper json = new ObjectMapper();
            Files.createDirectories(out.toAbsolutePath().getParent());
            ObjectNode root = Files.exists(out) ? (ObjectNode) json.readTree(out.toFile()) : json.createObjectNode();
            root.set(server.section("drain"), json.valueToTree(drain));
            json.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), root);
            System.out.println("wrote section " + server.section("drain") + " of " + out);
        } finally {
            BenchFiles.deleteTree(work);
        }
    }

    /**
     * {@code --order-only}: the default and {@code ORDER=key} over one event per object, alternated,
     * printed and not written (the drain section's figures come from one run of every variant).
     */
    private static void orderOnly(DrainBench bench, int measured, int rounds) throws Exception {
        List<Double> jetsinkRuns = new ArrayList<>();
        List<Double> orderedRuns = new ArrayList<>();
        List<Double> defaultCpu = new ArrayList<>();
        List<Double> orderedCpu = new ArrayList<>();
        List<Double> pressure = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            CpuPressure start = CpuPressure.sample();
            for (boolean ordered : r % 2 == 0 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                if (ordered) {
                    orderedRuns.add(bench.jetsink(measured, 1024, OrderMode.KEY, new DrainBacklog(bench.kind, 0),
                        "jetsink ORDER=key, one event per object (round " + r + ")"));
                } else {
                    jetsinkRuns.add(bench.jetsink(measured, 1024, "jetsink publish_window=1024 (round " + r + ")"));
                }
                (ordered ? orderedCpu : defaultCpu).add(bench.lastCpuMicros);
            }
            pressure.add(CpuPressure.sample().percentSince(start).orElse(-1));
        }
        System.out.printf("%n--order-only, %d rounds of %d events: default %.0f, ORDER=key %.0f events/s, %sx of default;"
            + " CPU per event %s against %s us; cpu pressure %s %% (not written)%n", rounds, measured, median(jetsinkRuns),
            median(orderedRuns), Spread.text(Spread.ratios(orderedRuns, jetsinkRuns), "%.2f"), Spread.text(orderedCpu, "%.1f"),
            Spread.text(defaultCpu, "%.1f"), Spread.text(pressure, "%.0f"));
    }

    /** Round {@code r}'s ordered drains: one event per object ({@code measured}), then one hot object. */
    private void ordered(int r, int measured, int hotEvents, List<Double> orderedRuns, List<Double> orderedCpu,
                         List<Double> hotRuns) throws Exception {
        orderedRuns.add(jetsink(measured, 1024, OrderMode.KEY, new DrainBacklog(kind, 0),
            "jetsink ORDER=key, one event per object (round " + r + ")"));
        orderedCpu.add(lastCpuMicros);
        hotRuns.add(jetsink(hotEvents, 1024, OrderMode.KEY, new DrainBacklog(kind, 1),
            "jetsink ORDER=key, every event one object (round " + r + ")"));
    }

    /** Fills a jetsink queue while the target is stopped, then times start-to-empty. */
    private double jetsink(int n, int window, String label) throws Exception {
        return jetsink(n, window, OrderMode.NONE, new DrainBacklog(kind, 0), label);
    }

    /** {@link #jetsink(int, int, String)} for a target keeping {@code order}, the backlog about {@code backlog}'s objects. */
    private double jetsink(int n, int window, OrderMode order, DrainBacklog backlog, String label) throws Exception {
        purge();
        Path queueDir = Files.createDirectories(work.resolve("jetsink-" + window + "-" + n + "-" + System.nanoTime()));
        CountDownLatch drained = new CountDownLatch(n);
        AtomicLong failed = new AtomicLong();
        AtomicLong connectedAt = new AtomicLong();
        LifecycleListener counter = new LifecycleListener() {
            @Override
            public void connectionChanged(LifecycleEvent.ConnectionChanged e) {
                if (e.event() == LifecycleEvent.ConnectionEvent.CONNECTED) {
                    connectedAt.compareAndSet(0, System.nanoTime());
                }
            }

            @Override
            public void entryResolved(LifecycleEvent.EntryResolved e) {
                drained.countDown();
            }

            @Override
            public void movedToFailedStore(LifecycleEvent.MovedToFailedStore e) {
                failed.incrementAndGet();
                drained.countDown();
            }
        };
        TargetRuntime runtime = TargetRuntime.system().withListener(counter)
            .withNotifyConcurrency(new StreamConcurrency(notifyConcurrency));
        try (NatsTarget target = NatsTarget.open(config(queueDir, window, n, order), runtime)) {
            DrainBacklog.nextRound();
            long fillStart = System.nanoTime();
            backlog.fill(target, n);
            double fillSecs = seconds(System.nanoTime() - fillStart);
            if (target.queueLength() != n) {
                throw new IllegalStateException("queue holds " + target.queueLength() + " entries, expected " + n);
            }
            long start = System.nanoTime();
            long cpuStart = PROCESS.getProcessCpuTime();
            target.start();
            if (!drained.await(DRAIN_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException(label + ": not drained within " + DRAIN_LIMIT + ", left " + target.queueLength());
            }
            long end = System.nanoTime();
            lastCpuMicros = (PROCESS.getProcessCpuTime() - cpuStart) / 1e3 / n;
            checkStored(n, label);
            if (failed.get() > 0) {
                throw new IllegalStateException(label + ": " + failed.get() + " entries went to the failed store");
            }
            // timed from the connection, as raw publish is: the connect at start is not draining
            long from = connectedAt.get() == 0 ? start : connectedAt.get();
            return report(label, n, seconds(end - from), String.format("queue fill %.1f s, connect %.0f ms after start,"
                + " CPU %.1f us per event", fillSecs, (from - start) / 1e6, lastCpuMicros));
        } finally {
            runtime.scheduler().shutdownNow();
            BenchFiles.deleteTree(queueDir);
        }
    }

    /** The baseline peer: crash-safe file per event, then publish-wait-delete one at a time. */
    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    private double baseline(int n) throws Exception {
        purge();
        Path dir = work.resolve("baseline-" + System.nanoTime());
        BaselinePeer peer = new BaselinePeer(dir);
        long fillStart = System.nanoTime();
        for (int i = 0; i < n; i++) {
            peer.place(i, UUID.randomUUID().toString(), new DrainBacklog(TargetKind.NOTIFY, 0).event(i).payload());
        }
        BaselinePeer.settle();
        double fillSecs = seconds(System.nanoTime() - fillStart);
        try (Connection c = server.connect()) {
            JetStream js = c.jetStream();
            long start = System.nanoTime();
            long delivered = peer.drain(js, SUBJECT);
            double secs = seconds(System.nanoTime() - start);
            if (delivered != n) {
                throw new IllegalStateException("baseline delivered " + delivered + " of " + n);
            }
            checkStored(n, "baseline");
            return report("baseline peer (file per event, sync publish, delete)", n, secs,
                String.format("file fill and sync %.1f s", fillSecs));
        } finally {
            BenchFiles.deleteTree(dir);
        }
    }

    /** The physical limit: publishAsync with msg ids, at most {@link #RAW_WINDOW} unacknowledged. */
    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    private double raw(int n, String label) throws Exception {
        purge();
        String run = UUID.randomUUID().toString();
        // built before the clock starts; a ring of them, since a measured round can hold millions
        byte[][] payloads = new byte[Math.min(n, RAW_PAYLOADS)][];
        for (int i = 0; i < payloads.length; i++) {
            payloads[i] = new DrainBacklog(TargetKind.NOTIFY, 0).event(i).payload();
        }
        try (Connection c = server.connect()) {
            JetStream js = c.jetStream();
            Semaphore window = new Semaphore(RAW_WINDOW);
            AtomicLong errors = new AtomicLong();
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                window.acquire();
                js.publishAsync(SUBJECT, payloads[i % payloads.length], PublishOptions.builder().messageId(run + "-" + i).build())
                    .whenComplete((ack, t) -> {
                        if (t != null) {
                            errors.incrementAndGet();
                        }
                        window.release();
                    });
            }
            window.acquire(RAW_WINDOW);
            double secs = seconds(System.nanoTime() - start);
            if (errors.get() > 0) {
                throw new IllegalStateException(label + ": " + errors.get() + " publishes failed");
            }
            checkStored(n, label);
            return report(label, n, secs, "");
        }
    }

    private TargetConfig config(Path queueDir, int window, int n, OrderMode order) {
        Map<String, String> env = new HashMap<>();
        env.put(kind.variable("enable"), "on");
        env.put(kind.variable("address"), server.url());
        env.put(kind.variable("subject"), SUBJECT);
        env.put(kind.variable("jetstream_enable"), "on");
        env.put(kind.variable("jetstream_stream_name"), STREAM);
        env.put(kind.variable("queue_dir"), queueDir.toString());
        env.put(kind.variable("queue_limit"), Long.toString(Math.max(n, 100_000)));
        env.put(kind.variable("publish_window"), Integer.toString(window));
        env.put(kind.variable("order"), order.label());
        LoadedConfig loaded = ConfigLoader.load(env, Optional.empty());
        if (!loaded.valid()) {
            throw new IllegalStateException("bench config invalid: " + loaded.errors());
        }
        return loaded.config().activeTargets().get(0);
    }

    private void purge() throws Exception {
        admin.jetStreamManagement().purgeStream(STREAM);
    }

    private void checkStored(int n, String label) {
        long stored = Streams.state(admin, STREAM).getMsgCount();
        if (stored != n) {
            throw new IllegalStateException(label + ": stream holds " + stored + " messages, expected " + n);
        }
    }

    private static double report(String label, int n, double secs, String note) {
        double eps = n / secs;
        System.out.printf("%-58s %7d events in %7.2f s = %9.0f events/s %s%n", label, n, secs, eps, note);
        return eps;
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int mid = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(mid) : (sorted.get(mid - 1) + sorted.get(mid)) / 2;
    }

    private static long round(double v) {
        return Math.round(v);
    }

    private static double round2(double v) {
        return Math.round(v * 100) / 100.0;
    }

}

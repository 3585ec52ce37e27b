package dev.jetsink.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.queue.QueueOptions;
import dev.jetsink.internal.queue.SegmentedQueue;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * docs/BENCHMARKS.md "Durable enqueue": durable enqueue rate of 1 KiB events at 1, 8 and 64
 * producer threads, each waiting for its own durable acknowledgement before the next, jetsink's
 * queue against the baseline file-per-event store; plus the open time and heap of a 180 000-entry
 * queue. Prints the ratios and merges a {@code queue} section into the results file given as the
 * first argument.
 */
public final class DurableEnqueueBench {
    static final int EVENT_BYTES = 1024;
    static final int[] PRODUCERS = {1, 8, 64};
    static final int BACKLOG = 180_000;
    static final int ROUNDS = 3;

    private DurableEnqueueBench() {
    }

    @FunctionalInterface
    interface DurableStore {
        void put(int producer, long n) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        Path results = Path.of(args.length > 0 ? args[0] : "bench/results/latest.json");
        long seconds = Long.getLong("bench.seconds", 3);
        Path work = Files.createTempDirectory(Path.of(System.getProperty("bench.dir", "bench/target")), "queue-bench");
        byte[] event = event();
        EventMetadata meta = new EventMetadata(TargetKind.NOTIFY, "bench", "object.bin", "s3:ObjectCreated:Put", "application/json");
        ObjectMapper json = new ObjectMapper();
        ObjectNode queue = json.createObjectNode();
        ObjectNode by = json.createObjectNode();
        try {
            for (int p : PRODUCERS) {
                Path qdir = work.resolve("jetsink-" + p);
                List<Double> jetsink = new ArrayList<>();
                List<Double> baseline = new ArrayList<>();
                List<Double> pressure = new ArrayList<>();
                BaselineEventStore baselineStore = new BaselineEventStore(work.resolve("baseline-" + p));
                // alternate the two stores in rounds so load from other processes hits both alike
                for (int round = 0; round < ROUNDS; round++) {
                    CpuPressure start = CpuPressure.sample();
                    try (SegmentedQueue q = SegmentedQueue.open(qdir, QueueOptions.withLimit(Long.MAX_VALUE))) {
                        jetsink.add(rate(p, seconds, (producer, n) -> q.append(meta, event).join()));
                    }
                    baseline.add(rate(p, seconds, (producer, n) -> baselineStore.put("bench/object-" + producer + "-" + n, event)));
                    pressure.add(CpuPressure.sample().percentSince(start).orElse(-1));
                }
                List<Double> ratios = Spread.ratios(jetsink, baseline);
                System.out.printf("durable enqueue, %2d producer(s): jetsink %s/s  baseline %s/s  ratio %s  cpu pressure %s %%%n",
                    p, Spread.text(jetsink, "%,.0f"), Spread.text(baseline, "%,.0f"), Spread.text(ratios, "%.1f"),
                    Spread.text(pressure, "%.0f"));
                ObjectNode point = by.putObject(String.valueOf(p));
                point.putPOJO("jetsink_eps", Spread.of(jetsink, 0));
                point.putPOJO("baseline_eps", Spread.of(baseline, 0));
                point.putPOJO("ratio", Spread.of(ratios, 1));
                point.putPOJO("cpu_pressure_pct", Spread.of(pressure, 0));
                BenchFiles.deleteTree(qdir);
                BenchFiles.deleteTree(work.resolve("baseline-" + p));
            }
            queue.put("seconds", seconds);
            queue.put("rounds", ROUNDS);
            queue.put("event_bytes", EVENT_BYTES);
            queue.set("by_producers", json.valueToTree(by));
            openBacklog(work.resolve("backlog"), meta, event, queue);
        } finally {
            BenchFiles.deleteTree(work);
        }
        ObjectNode root = Files.exists(results) ? (ObjectNode) json.readTree(results.toFile()) : json.createObjectNode();
        root.set("queue", queue);
        Files.createDirectories(results.toAbsolutePath().getParent());
        json.writerWithDefaultPrettyPrinter().writeValue(results.toFile(), root);
        System.out.println("wrote " + results);
    }

    /** Completed durable puts per second with {@code producers} threads, each waiting for its own ack. */
    static double rate(int producers, long seconds, DurableStore store) throws InterruptedException {
        AtomicBoolean measuring = new AtomicBoolean(false);
        AtomicBoolean stop = new AtomicBoolean(false);
        LongAdder done = new LongAdder();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < producers; t++) {
            int producer = t;
            Thread th = new Thread(() -> {
                for (long n = 0; !stop.get(); n++) {
                    try {
                        store.put(producer, n);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    if (measuring.get()) {
                        done.increment();
                    }
                }
            });
            threads.add(th);
            th.start();
        }
        Thread.sleep(500);
        measuring.set(true);
        long start = System.nanoTime();
        Thread.sleep(seconds * 1000);
        measuring.set(false);
        long elapsed = System.nanoTime() - start;
        stop.set(true);
        for (Thread th : threads) {
            th.join();
        }
        return done.sum() / (elapsed / 1e9);
    }

    /** Fills a queue with 180 000 live 1 KiB entries, then times a cold open and measures the heap it holds. */
    static void openBacklog(Path dir, EventMetadata meta, byte[] event, ObjectNode out) throws Exception {
        try (SegmentedQueue q = SegmentedQueue.open(dir, QueueOptions.withLimit(BACKLOG))) {
            List<CompletableFuture<?>> window = new ArrayList<>();
            for (int i = 0; i < BACKLOG; i++) {
                window.add(q.append(meta, event));
                if (window.size() == 4096) {
                    CompletableFuture.allOf(window.toArray(CompletableFuture[]::new)).join();
                    window.clear();
                }
            }
            CompletableFuture.allOf(window.toArray(CompletableFuture[]::new)).join();
        }
        long best = Long.MAX_VALUE;
        long heap = 0;
        for (int i = 0; i < 3; i++) {
            long before = usedHeapAfterGc();
            long start = System.nanoTime();
            SegmentedQueue q = SegmentedQueue.open(dir, QueueOptions.withLimit(BACKLOG));
            long ms = (System.nanoTime() - start) / 1_000_000;
            long live = q.liveCount();
            heap = usedHeapAfterGc() - before;
            q.close();
            if (live != BACKLOG) {
                throw new IllegalStateException("reopened queue has " + live + " entries, expected " + BACKLOG);
            }
            best = Math.min(best, ms);
        }
        System.out.printf("open of a %,d-entry queue: %d ms (best of 3), index heap ~%.1f MiB, %d MiB on disk%n",
            BACKLOG, best, heap / 1048576.0, sizeOf(dir) / 1048576);
        out.put("open_ms_180k", best);
        out.put("open_heap_mib_180k", round1(heap / 1048576.0));
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    static byte[] event() {
        StringBuilder sb = new StringBuilder("{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"bench/object.bin\",\"Records\":[{\"pad\":\"");
        while (sb.length() < EVENT_BYTES - 4) {
            sb.append('x');
        }
        sb.append("\"}]}");
        byte[] b = sb.toString().getBytes(StandardCharsets.UTF_8);
        return Arrays.copyOf(b, EVENT_BYTES);
    }

    private static double round1(double v) {
        return Math.round(v * 10) / 10.0;
    }

    private static long sizeOf(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.map(Path::toFile).mapToLong(File::length).sum();
        }
    }

}

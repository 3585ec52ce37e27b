package dev.jetsink.server.ingest;

import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ceph RGW's persistent topics re-send a refused event about every 45 ms and ignore Retry-After
 * (FORMATS.md, "Senders"). A full queue's 503 is decided before the body is read, and such a storm
 * against one target must not hold up another sender: every ordinary POST is answered while the
 * storm is still going. How much the storm slows them is a figure the test prints, not a bound it
 * asserts; a wall-clock bound on a shared two-core machine fails on an unrelated fsync stall.
 */
class RetryStormIT {

    private static final int STORM_THREADS = 4;
    private static final int NORMAL_EVENTS = FaultRig.count(300, 2_000);

    @Test
    void aRetryStormAgainstAFullQueueIsRefusedWhileAnotherSenderIsServed() throws Exception {
        try (FaultRig rig = FaultRig.notifyOnly()) {
            String p = dev.jetsink.internal.config.TargetKind.NOTIFY.envPrefix();
            // A second target whose stream does not exist: it queues, never delivers, and fills at 20.
            rig.env.put(p + "ENABLE_STORM", "on");
            rig.env.put(p + "SUBJECT_STORM", "rustfs.storm");
            rig.env.put(p + "JETSTREAM_STREAM_NAME_STORM", "STORM_NOWHERE");
            rig.env.put(p + "QUEUE_LIMIT_STORM", "20");
            rig.startDaemon();
            HttpClient storm = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger refused = new AtomicInteger();
            AtomicInteger other = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(STORM_THREADS);
            List<Future<Boolean>> storming = new ArrayList<>();
            byte[] stormBody = EventLoad.body(9_000_000).getBytes(StandardCharsets.UTF_8);
            for (int t = 0; t < STORM_THREADS; t++) {
                storming.add(pool.submit(() -> {
                    // Bounded: at most 60 s or 200 000 requests per thread.
                    long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                    for (int i = 0; i < 200_000 && System.nanoTime() < end; i++) {
                        if (stop.get()) {
                            return true;
                        }
                        HttpResponse<Void> r = storm.send(HttpRequest.newBuilder(rig.base().resolve("/notify/storm"))
                            .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofByteArray(stormBody)).build(),
                            HttpResponse.BodyHandlers.discarding());
                        (r.statusCode() == 503 ? refused : other).incrementAndGet();
                    }
                    return false;
                }));
            }
            long slowest = 0;
            List<Long> latencies = new ArrayList<>();
            List<Boolean> stormStillGoing = new ArrayList<>();
            try {
                for (int n = 0; n < NORMAL_EVENTS; n++) {
                    long started = System.nanoTime();
                    HttpResponse<String> r = rig.post("/notify/_", "application/json",
                        EventLoad.body(n).getBytes(StandardCharsets.UTF_8));
                    long took = System.nanoTime() - started;
                    latencies.add(took);
                    slowest = Math.max(slowest, took);
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                }
            } finally {
                stop.set(true);
                for (Future<Boolean> f : storming) {
                    stormStillGoing.add(f.get());
                }
                pool.shutdownNow();
            }
            latencies.sort(Long::compare);
            long p99 = latencies.get((int) (latencies.size() * 0.99) - 1);
            System.out.println("fault scenario=retry-storm normal_events=" + NORMAL_EVENTS + " storm_503=" + refused.get()
                + " storm_other=" + other.get() + " normal_p99_ms=" + p99 / 1_000_000 + " normal_max_ms=" + slowest / 1_000_000);
            assertThat(stormStillGoing).as("every ordinary POST was answered before any storm thread ran out of time or requests")
                .hasSize(STORM_THREADS).containsOnly(true);
            assertThat(other.get()).as("only the 20 events the storm target had room for were taken").isEqualTo(20);
            assertThat(refused.get()).as("the storm was refused, many times").isGreaterThan(NORMAL_EVENTS);
            // The storm target keeps its 20 forever (no stream), so wait on the stream, not the queues.
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> rig.streamCount() >= NORMAL_EVENTS);
            assertThat(rig.streamCount()).isEqualTo(NORMAL_EVENTS);
        }
    }
}

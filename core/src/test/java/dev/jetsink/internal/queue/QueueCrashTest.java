package dev.jetsink.internal.queue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SIGKILLs a child JVM that appends from several threads at random moments, reopens the queue and
 * checks that nothing acknowledged is lost and nothing partial appears. The seed is printed;
 * {@code -Djetsink.crash.seed=<seed>} replays a run, {@code -Djetsink.crash.kills=<n>} sets the
 * number of kill points (default 30).
 */
class QueueCrashTest {
    @TempDir
    Path dir;

    /** What the child acknowledged: msg id per object. */
    private final Map<String, String> acked = new HashMap<>();
    private final Map<String, Long> ackedSeq = new HashMap<>();

    @Test
    void everyAcknowledgedEntrySurvivesSigkillAndNoPartialRecordAppears() throws Exception {
        long seed = Long.getLong("jetsink.crash.seed", System.nanoTime());
        int kills = Integer.getInteger("jetsink.crash.kills", 30);
        System.out.println("QueueCrashTest seed=" + seed + " kills=" + kills + " (replay with -Djetsink.crash.seed=" + seed + ")");
        Random random = new Random(seed);
        for (int k = 0; k < kills; k++) {
            killOnce("r" + k, 1 + random.nextInt(6), random.nextInt(400));
            verify(seed, k);
        }
        assertThat(acked).as("the child acknowledged appends (seed %d)", seed).hasSizeGreaterThan(kills);
    }

    private void killOnce(String run, int threads, int delayMs) throws Exception {
        Process p = child(run, String.valueOf(threads));
        CountDownLatch ready = new CountDownLatch(1);
        List<String> lines = new ArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    if (line.equals("READY")) {
                        ready.countDown();
                    } else if (line.startsWith("ACK ")) {
                        synchronized (lines) {
                            lines.add(line);
                        }
                    }
                }
            } catch (IOException ignored) {
                // the child was killed mid-line: only complete lines count as acknowledged
            }
        });
        reader.start();
        assertThat(ready.await(60, TimeUnit.SECONDS)).as("child started").isTrue();
        Thread.sleep(delayMs);
        p.destroyForcibly();
        p.waitFor();
        reader.join();
        for (String line : lines) {
            String[] f = line.split(" ");
            acked.put(f[3], f[2]);
            ackedSeq.put(f[3], Long.parseLong(f[1]));
        }
    }

    private void verify(long seed, int k) {
        try (SegmentedQueue q = SegmentedQueue.open(dir, QueueOptions.withLimit(10_000_000).withSegmentMaxRecords(64))) {
            Map<String, QueuedEntry> present = new HashMap<>();
            for (QueuedEntry e : q.live(0, Integer.MAX_VALUE)) {
                String object = e.metadata().object();
                // every returned entry is a complete, CRC-valid record some producer submitted
                assertThat(q.read(e)).as("payload of %s (seed %d, kill %d)", object, seed, k)
                    .isEqualTo(CrashingAppender.payloadFor(object));
                assertThat(present.put(object, e)).as("entry %s appears once", object).isNull();
                if (acked.containsKey(object)) {
                    assertThat(e.msgId()).isEqualTo(acked.get(object));
                    assertThat(e.seq()).isEqualTo(ackedSeq.get(object));
                }
            }
            for (Map.Entry<String, String> a : acked.entrySet()) {
                int n = Integer.parseInt(a.getKey().substring(a.getKey().lastIndexOf('n') + 1));
                if (n % 5 != 0) {
                    assertThat(present).as("acknowledged %s after kill %d (seed %d)", a.getKey(), k, seed)
                        .containsKey(a.getKey());
                }
            }
            assertThat(q.corruptRecords()).as("corrupt records after kill %d (seed %d)", k, seed).isZero();
        }
    }

    @Test
    @SuppressWarnings("try") // "q" is never read: it only holds the queue's lock while a child process opens it
    void secondProcessOpeningTheQueueGetsAClearError() throws Exception {
        try (SegmentedQueue q = SegmentedQueue.open(dir, QueueOptions.withLimit(10))) {
            Process p = child("lock");
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            assertThat(out).contains("LOCKED queue is in use by another process: " + dir.resolve("LOCK"))
                .contains("pid " + ProcessHandle.current().pid());
        }
    }

    private Process child(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
            "-Dlogback.configurationFile=none",
            "-cp", System.getProperty("java.class.path"),
            CrashingAppender.class.getName(), dir.toString()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }
}

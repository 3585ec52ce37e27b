package dev.jetsink.internal.queue;

import static dev.jetsink.internal.queue.QueueFixtures.append;
import static dev.jetsink.internal.queue.QueueFixtures.logs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hook an ordered target forces its numbers with ({@link QueueStore#beforeResolutionsForced})
 * runs after the queue took the resolutions it makes durable and before they are on disk: before
 * the sidecar is written, before a resolved segment is deleted.
 */
class ResolutionHookTest {
    @TempDir
    Path dir;

    @Test
    void runsBeforeTheSidecarHoldsTheResolution() throws Exception {
        try (SegmentedQueue q = SegmentedQueue.open(dir, QueueFixtures.small(1000))) {
            QueuedEntry e = append(q, "event-1");
            Path ack = logs(dir).get(0).resolveSibling(logs(dir).get(0).getFileName().toString().replace(".log", ".ack"));
            byte[] before = Files.readAllBytes(ack);
            List<byte[]> seenByHook = new CopyOnWriteArrayList<>();
            q.beforeResolutionsForced(() -> {
                try {
                    seenByHook.add(Files.readAllBytes(ack));
                } catch (java.io.IOException x) {
                    throw new java.io.UncheckedIOException(x);
                }
            });
            q.resolve(e.seq());
            await().atMost(10, TimeUnit.SECONDS).until(() -> !seenByHook.isEmpty());
            assertThat(seenByHook.get(0)).as("the sidecar as it was: the resolution not written yet").isEqualTo(before);
            await().atMost(10, TimeUnit.SECONDS).until(() -> !java.util.Arrays.equals(Files.readAllBytes(ack), before));
        }
    }

    @Test
    void runsBeforeAResolvedSegmentIsDeleted() throws Exception {
        try (SegmentedQueue q = SegmentedQueue.open(dir, QueueFixtures.small(4))) {
            List<QueuedEntry> written = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                written.add(append(q, "event-" + i)); // the fifth seals the first segment
            }
            Path first = logs(dir).get(0);
            List<Boolean> segmentThere = new CopyOnWriteArrayList<>();
            q.beforeResolutionsForced(() -> segmentThere.add(Files.exists(first)));
            for (int i = 0; i < 4; i++) {
                q.resolve(written.get(i).seq());
            }
            await().atMost(10, TimeUnit.SECONDS).until(() -> !Files.exists(first));
            assertThat(segmentThere).isNotEmpty().allMatch(Boolean::booleanValue);
        }
    }

    @Test
    void whileTheHookFailsNoResolutionReachesTheDiskAndOnceItSucceedsTheyAllDo() throws Exception {
        try (SegmentedQueue q = SegmentedQueue.open(dir, QueueFixtures.small(4))) {
            List<QueuedEntry> written = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                written.add(append(q, "event-" + i)); // the fifth seals the first segment
            }
            Path first = logs(dir).get(0);
            Path second = logs(dir).get(1);
            Path secondAck = second.resolveSibling(second.getFileName().toString().replace(".log", ".ack"));
            byte[] secondBefore = Files.readAllBytes(secondAck);
            java.util.concurrent.atomic.AtomicInteger failures = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicBoolean failing = new java.util.concurrent.atomic.AtomicBoolean(true);
            q.beforeResolutionsForced(() -> {
                if (failing.get()) {
                    failures.incrementAndGet();
                    throw new java.io.UncheckedIOException(new java.io.IOException("numbers not durable"));
                }
            });
            for (int i = 0; i < 5; i++) {
                q.resolve(written.get(i).seq());
            }
            await().atMost(10, TimeUnit.SECONDS).until(() -> failures.get() >= 3); // upkeep has tried several times
            assertThat(first).as("a resolved segment is not deleted").exists();
            assertThat(Files.readAllBytes(secondAck)).as("a resolution is not written").isEqualTo(secondBefore);

            failing.set(false);
            await().atMost(10, TimeUnit.SECONDS).until(() -> !Files.exists(first)
                && !java.util.Arrays.equals(Files.readAllBytes(secondAck), secondBefore));
        }
    }
}

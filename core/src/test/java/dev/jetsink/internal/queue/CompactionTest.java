package dev.jetsink.internal.queue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.jetsink.internal.queue.QueueFixtures.all;
import static dev.jetsink.internal.queue.QueueFixtures.append;
import static dev.jetsink.internal.queue.QueueFixtures.logs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A sealed segment with under 1 % live entries, older than 10 minutes, is compacted
 * (DESIGN.md "Queue").
 */
class CompactionTest {
    @TempDir
    Path dir;

    private final QueueFixtures.MovableClock clock = new QueueFixtures.MovableClock();

    private QueueOptions options() {
        return QueueOptions.withLimit(100_000).withSegmentMaxRecords(200).withClock(clock);
    }

    @Test
    void sparseOldSegmentShrinksToItsLiveEntriesWhichKeepMsgIdAndQueuedAt() throws Exception {
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, options())) {
            for (int i = 0; i < 201; i++) {
                written.add(append(q, "event-" + i + "-" + "y".repeat(200)));
            }
            QueuedEntry stuck = written.get(150);
            for (int i = 0; i < 200; i++) {
                if (i != 150) {
                    q.resolve(written.get(i).seq());
                }
            }
            Path sparse = logs(dir).get(0);
            long before = Files.size(sparse);
            clock.advance(Duration.ofMinutes(9));
            // younger than ten minutes: left alone through several upkeep rounds (one every 50 ms)
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
                .until(() -> Files.size(sparse) == before);
            clock.advance(Duration.ofMinutes(2));
            await().atMost(10, TimeUnit.SECONDS).until(() -> Files.size(sparse) < before / 50);
            assertThat(all(q)).containsExactly(stuck, written.get(200));
            assertThat(q.read(stuck)).isEqualTo(QueueFixtures.payload(stuck.metadata().object()));
            assertThat(q.bytes()).isLessThan(before / 2);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, options())) {
            assertThat(all(q)).containsExactly(written.get(150), written.get(200));
        }
    }

    @Test
    void compactionThatFailsHalfwayLeavesTheSegmentAndItsEntriesAsTheyWere() throws Exception {
        FaultyChannels channels = new FaultyChannels();
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, options().withChannels(channels))) {
            for (int i = 0; i < 201; i++) {
                written.add(append(q, "event-" + i));
            }
            for (int i = 1; i < 200; i++) {
                q.resolve(written.get(i).seq());
            }
            Path sparse = logs(dir).get(0);
            byte[] before = Files.readAllBytes(sparse);
            // the copy's fsync fails: the copy is dropped, the original stays
            channels.failForces.set(1);
            clock.advance(Duration.ofMinutes(11));
            await().atMost(10, TimeUnit.SECONDS).until(() -> channels.failForces.get() == 0);
            assertThat(all(q)).containsExactly(written.get(0), written.get(200));
            assertThat(q.read(written.get(0))).isEqualTo(QueueFixtures.payload("event-0"));
            // retried a minute later (by the queue's clock), and this time it works
            clock.advance(Duration.ofMinutes(1));
            await().atMost(10, TimeUnit.SECONDS).until(() -> Files.size(sparse) < before.length / 50);
            assertThat(q.read(written.get(0))).isEqualTo(QueueFixtures.payload("event-0"));
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, options())) {
            assertThat(all(q)).containsExactly(written.get(0), written.get(200));
            assertThat(q.corruptRecords()).isZero();
        }
        try (var files = Files.list(dir.resolve("segments"))) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
    }
}

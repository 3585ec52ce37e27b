package dev.jetsink.internal.queue;

import dev.jetsink.QueueStoreException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.jetsink.internal.queue.QueueFixtures.all;
import static dev.jetsink.internal.queue.QueueFixtures.meta;
import static dev.jetsink.internal.queue.QueueFixtures.payload;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Readers paging and reading while compaction and deletion rewrite segments under them
 * (DESIGN.md "Queue").
 */
class ReadsDuringCompactionTest {
    @TempDir
    Path dir;

    private final QueueFixtures.MovableClock clock = new QueueFixtures.MovableClock();

    @Test
    void readersNeverSeeAWrongOrFailedRecordWhileSegmentsAreCompactedAndDeleted() throws Exception {
        QueueOptions options = QueueOptions.withLimit(100_000).withSegmentMaxRecords(200).withClock(clock);
        List<QueuedEntry> kept;
        try (SegmentedQueue q = SegmentedQueue.open(dir, options)) {
            List<CompletableFuture<QueuedEntry>> fs = new CopyOnWriteArrayList<>();
            List<Thread> producers = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int tt = t;
                Thread th = new Thread(() -> {
                    for (int i = 0; i < 250; i++) {
                        String text = "p" + tt + "-" + i + "-" + "z".repeat(i % 50);
                        fs.add(q.append(meta(text), payload(text)));
                    }
                });
                producers.add(th);
                th.start();
            }
            for (Thread th : producers) {
                th.join();
            }
            List<QueuedEntry> written = new ArrayList<>();
            for (CompletableFuture<QueuedEntry> f : fs) {
                written.add(f.get(30, TimeUnit.SECONDS));
            }
            written.sort(Comparator.comparingLong(QueuedEntry::seq));
            // one live entry in some segments (compacted), none in others (deleted); the writer's segment stays whole
            List<QueuedEntry> keep = new ArrayList<>();
            for (int i = 0; i < written.size(); i++) {
                QueuedEntry e = written.get(i);
                boolean newest = i >= written.size() - 10;
                if (newest || i % 450 == 7) {
                    keep.add(e);
                } else {
                    q.resolve(e.seq());
                }
            }
            kept = keep;
            Map<Long, String> expected = new ConcurrentHashMap<>();
            for (QueuedEntry e : kept) {
                expected.put(e.seq(), e.metadata().object());
            }
            long before = q.bytes();

            AtomicBoolean stop = new AtomicBoolean();
            List<Throwable> errors = new CopyOnWriteArrayList<>();
            AtomicLong reads = new AtomicLong();
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                boolean chaos = r == 0;
                Thread th = new Thread(() -> {
                    long n = 0;
                    while (!stop.get()) {
                        long after = 0;
                        List<QueuedEntry> page;
                        do {
                            page = q.live(after, 3);
                            for (QueuedEntry e : page) {
                                n++;
                                if (chaos && n % 7 == 0) {
                                    // this reader is interrupted now and then: only its own read may fail
                                    Thread.currentThread().interrupt();
                                    try {
                                        q.read(e);
                                    } catch (QueueStoreException expectedFailure) {
                                        // interrupted: allowed
                                    }
                                    Thread.interrupted();
                                    continue;
                                }
                                try {
                                    String got = new String(q.read(e), StandardCharsets.UTF_8);
                                    if (!got.equals(expected.get(e.seq())) || !got.equals(e.metadata().object())) {
                                        errors.add(new AssertionError("entry " + e.seq() + " read back as " + got));
                                    }
                                    reads.incrementAndGet();
                                } catch (RuntimeException ex) {
                                    errors.add(ex);
                                }
                                after = e.seq();
                            }
                            if (!page.isEmpty()) {
                                after = page.get(page.size() - 1).seq();
                            }
                        } while (!page.isEmpty() && !stop.get());
                    }
                });
                readers.add(th);
                th.start();
            }
            clock.advance(Duration.ofMinutes(11));
            await().atMost(20, TimeUnit.SECONDS).until(() -> q.bytes() < before / 4);
            long readsAtCompaction = reads.get();
            await().atMost(10, TimeUnit.SECONDS).until(() -> reads.get() > readsAtCompaction + 100 || !errors.isEmpty());
            stop.set(true);
            for (Thread th : readers) {
                th.join();
            }
            assertThat(errors).isEmpty();
            assertThat(all(q)).containsExactlyElementsOf(kept);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, options)) {
            assertThat(all(q)).containsExactlyElementsOf(kept);
            assertThat(q.corruptRecords()).isZero();
        }
    }
}

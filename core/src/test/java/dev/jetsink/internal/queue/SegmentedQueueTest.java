package dev.jetsink.internal.queue;

import dev.jetsink.QueueLockedException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.jetsink.internal.queue.QueueFixtures.all;
import static dev.jetsink.internal.queue.QueueFixtures.append;
import static dev.jetsink.internal.queue.QueueFixtures.logs;
import static dev.jetsink.internal.queue.QueueFixtures.small;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class SegmentedQueueTest {
    @TempDir
    Path dir;

    @Test
    void appendedEntriesAreReadBackByteIdenticalAfterReopen() throws Exception {
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(10))) {
            for (int i = 0; i < 25; i++) {
                written.add(append(q, "event-" + i));
            }
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(10))) {
            List<QueuedEntry> live = all(q);
            assertThat(live).containsExactlyElementsOf(written);
            for (QueuedEntry e : live) {
                assertThat(new String(q.read(e), StandardCharsets.UTF_8)).isEqualTo(e.metadata().object());
            }
            assertThat(q.liveCount()).isEqualTo(25);
            assertThat(q.oldestQueuedAt()).contains(written.get(0).queuedAt());
        }
    }

    @Test
    void concurrentAppendsGetDistinctGrowingSequencesAndUuidV7MsgIds() throws Exception {
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(1000))) {
            List<CompletableFuture<QueuedEntry>> fs = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int tt = t;
                Thread th = new Thread(() -> {
                    for (int i = 0; i < 50; i++) {
                        CompletableFuture<QueuedEntry> f = q.append(QueueFixtures.meta(tt + "-" + i), QueueFixtures.payload("x"));
                        synchronized (fs) {
                            fs.add(f);
                        }
                    }
                });
                threads.add(th);
                th.start();
            }
            for (Thread th : threads) {
                th.join();
            }
            Set<Long> seqs = new HashSet<>();
            Set<String> ids = new HashSet<>();
            for (CompletableFuture<QueuedEntry> f : fs) {
                QueuedEntry e = f.get(30, TimeUnit.SECONDS);
                seqs.add(e.seq());
                ids.add(e.msgId());
                assertThat(UUID.fromString(e.msgId()).version()).isEqualTo(7);
            }
            assertThat(seqs).hasSize(400);
            assertThat(ids).hasSize(400);
            List<QueuedEntry> live = all(q);
            assertThat(live).extracting(QueuedEntry::seq).isSorted().hasSize(400);
        }
    }

    @Test
    void liveEntriesArePagedOldestFirst() {
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(4))) {
            for (int i = 0; i < 10; i++) {
                append(q, "e" + i);
            }
            List<QueuedEntry> first = q.live(0, 3);
            List<QueuedEntry> second = q.live(first.get(2).seq(), 3);
            assertThat(first).extracting(e -> e.metadata().object()).containsExactly("e0", "e1", "e2");
            assertThat(second).extracting(e -> e.metadata().object()).containsExactly("e3", "e4", "e5");
        }
    }

    @Test
    void resolvedEntriesDoNotComeBackAfterCleanClose() {
        List<QueuedEntry> written = new ArrayList<>();
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            for (int i = 0; i < 6; i++) {
                written.add(append(q, "e" + i));
            }
            assertThat(q.resolve(written.get(1).seq())).isTrue();
            assertThat(q.resolve(written.get(4).seq())).isTrue();
            assertThat(q.resolve(written.get(4).seq())).isFalse();
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            assertThat(all(q)).extracting(e -> e.metadata().object()).containsExactly("e0", "e2", "e3", "e5");
        }
    }

    @Test
    void fullyResolvedSegmentsAreDeleted() throws Exception {
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            List<QueuedEntry> written = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                written.add(append(q, "e" + i));
            }
            assertThat(logs(dir)).hasSize(3);
            for (int i = 0; i < 10; i++) {
                q.resolve(written.get(i).seq());
            }
            await().atMost(10, TimeUnit.SECONDS).until(() -> logs(dir).size() == 1);
            assertThat(Files.exists(dir.resolve("segments").resolve(String.format("%020d.ack", written.get(0).seq())))).isFalse();
            assertThat(all(q)).extracting(e -> e.metadata().object()).containsExactly("e10", "e11");
        }
    }

    @Test
    void oneUnresolvedEntryPinsOnlyItsOwnSegment() throws Exception {
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            List<QueuedEntry> written = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                written.add(append(q, "e" + i));
            }
            for (int i = 0; i < 15; i++) {
                if (i != 7) {
                    q.resolve(written.get(i).seq());
                }
            }
            // segments [1..5] and [11..15] go; [6..10] stays for e7; [16..] is the writer's
            await().atMost(10, TimeUnit.SECONDS).until(() -> logs(dir).size() == 2);
            assertThat(logs(dir).get(0).getFileName().toString()).isEqualTo(String.format("%020d.log", written.get(5).seq()));
            assertThat(all(q)).extracting(e -> e.metadata().object()).containsExactly("e7", "e15");
        }
    }

    @Test
    void highWaterMarkSurvivesDeletionOfAllSegments() throws Exception {
        long last;
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            QueuedEntry e = null;
            for (int i = 0; i < 7; i++) {
                e = append(q, "e" + i);
                q.resolve(e.seq());
            }
            last = e.seq();
        }
        // the next open deletes every fully resolved segment
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            assertThat(logs(dir)).isEmpty();
            assertThat(q.liveCount()).isZero();
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            assertThat(append(q, "after").seq()).isGreaterThan(last);
        }
    }

    @Test
    @SuppressWarnings("try") // "q" is never read: it only holds the queue's lock while the test opens it again
    void secondOpenerInTheSameProcessGetsAClearError() {
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            assertThatThrownBy(() -> SegmentedQueue.open(dir, small(5)))
                .isInstanceOf(QueueLockedException.class)
                .hasMessageContaining(dir.resolve("LOCK").toString())
                .hasMessageContaining("in use in this process").hasMessageNotContaining("another process");
        }
        SegmentedQueue.open(dir, small(5)).close();
    }

    @Test
    void readingAResolvedEntryFailsWithoutTouchingOthers() {
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(5))) {
            QueuedEntry a = append(q, "a");
            QueuedEntry b = append(q, "b");
            q.resolve(a.seq());
            assertThatThrownBy(() -> q.read(a)).isInstanceOf(java.util.NoSuchElementException.class);
            assertThat(q.read(b)).isEqualTo(QueueFixtures.payload("b"));
        }
    }
}

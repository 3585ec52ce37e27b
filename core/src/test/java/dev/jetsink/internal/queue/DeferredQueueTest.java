package dev.jetsink.internal.queue;

import dev.jetsink.QueueStoreException;

import dev.jetsink.QueueLockedException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.jetsink.internal.queue.QueueFixtures.all;
import static dev.jetsink.internal.queue.QueueFixtures.append;
import static dev.jetsink.internal.queue.QueueFixtures.small;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A queue directory the disk refuses at open is deferred, not fatal; a queue that
 * needs an operator (locked by another holder, written by a newer release) still throws. The
 * refusal is made with a regular file where the directory's parent should be: root, who runs
 * the suite, cannot write through that either.
 */
class DeferredQueueTest {
    @TempDir
    Path root;

    @Test
    void aDirectoryTheDiskRefusesIsDeferredThenOpensOnRetryWithItsEntries() throws Exception {
        Path parent = root.resolve("disk");
        Path dir = parent.resolve("notify-nats-_");
        QueuedEntry earlier;
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            earlier = append(q, "queued before");
        }
        Path aside = root.resolve("aside");
        Files.move(parent, aside);
        Files.writeString(parent, "not a directory");

        try (QueueStore q = DeferredQueue.open(dir, small(100))) {
            assertThat(DeferredQueue.unavailable(q)).hasValueSatisfying(r -> assertThat(r).contains(dir.toString()));
            assertThat(q.liveCount()).isZero();
            assertThat(q.live(0, 10)).isEmpty();
            assertThat(q.append(QueueFixtures.meta("e"), QueueFixtures.payload("e"), Optional.empty()))
                .failsWithin(java.time.Duration.ofSeconds(5))
                .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .withCauseInstanceOf(QueueStoreException.class)
                .withMessageContaining("is not open");
            assertThatThrownBy(() -> q.reserve(1)).isInstanceOf(QueueStoreException.class);
            DeferredQueue deferred = (DeferredQueue) q;
            assertThat(deferred.tryOpen()).as("still refused").isFalse();

            Files.delete(parent);
            Files.move(aside, parent);
            assertThat(deferred.tryOpen()).isTrue();
            assertThat(DeferredQueue.unavailable(q)).isEmpty();
            assertThat(all(q)).containsExactly(earlier);
            QueuedEntry next = q.append(QueueFixtures.meta("after"), QueueFixtures.payload("after"), Optional.empty()).join();
            assertThat(next.seq()).isGreaterThan(earlier.seq());
            assertThat(q.liveCount()).isEqualTo(2);
        }
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            assertThat(q.liveCount()).as("closing the deferred queue closed the opened one").isEqualTo(2);
        }
    }

    @Test
    void aHealthyDirectoryOpensAtOnceAsAPlainQueue() {
        try (QueueStore q = DeferredQueue.open(root.resolve("q"), small(100))) {
            assertThat(q).isInstanceOf(SegmentedQueue.class);
            assertThat(DeferredQueue.unavailable(q)).isEmpty();
        }
    }

    @Test
    @SuppressWarnings("try") // "held" is never read: it only holds the queue's lock while the test opens it again
    void aQueueHeldByAnotherHolderIsNotDeferred() {
        Path dir = root.resolve("q");
        try (SegmentedQueue held = SegmentedQueue.open(dir, small(100))) {
            assertThatThrownBy(() -> DeferredQueue.open(dir, small(100))).isInstanceOf(QueueLockedException.class);
        }
    }
}

package dev.jetsink.internal.queue;

import dev.jetsink.QueueStoreException;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.jetsink.internal.queue.QueueFixtures.all;
import static dev.jetsink.internal.queue.QueueFixtures.append;
import static dev.jetsink.internal.queue.QueueFixtures.logs;
import static dev.jetsink.internal.queue.QueueFixtures.meta;
import static dev.jetsink.internal.queue.QueueFixtures.payload;
import static dev.jetsink.internal.queue.QueueFixtures.small;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A thread's interrupt closes any {@link FileChannel} it is using. A dispatcher or producer thread
 * that is interrupted (task cancelled, shutdown) must not break the queue for everyone else.
 */
class QueueInterruptTest {
    @TempDir
    Path dir;

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void interruptedReaderDoesNotBreakLaterReadsOfItsSegment() {
        // nothing held in memory: every read goes to the segment file
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100).withHeldBytes(0))) {
            QueuedEntry e = append(q, "e0");
            Thread.currentThread().interrupt();
            assertThatThrownBy(() -> q.read(e)).isInstanceOf(QueueStoreException.class);
            assertThat(Thread.interrupted()).as("interrupt status kept").isTrue();
            assertThat(q.read(e)).isEqualTo(payload("e0"));
            assertThat(all(q)).containsExactly(e);
        }
    }

    @Test
    void interruptedProducerHandsItsAppendToTheWriterThread() throws Exception {
        try (SegmentedQueue q = SegmentedQueue.open(dir, small(100))) {
            QueuedEntry before = append(q, "before");
            Thread.currentThread().interrupt();
            CompletableFuture<QueuedEntry> f = q.append(meta("during"), payload("during"));
            assertThat(Thread.interrupted()).isTrue();
            QueuedEntry during = f.get(30, TimeUnit.SECONDS);
            assertThat(all(q)).containsExactly(before, during);
            // no failed write, so no roll to a new segment
            assertThat(logs(dir)).hasSize(1);
        }
    }

    @Test
    void closeOnAnInterruptedThreadStillFlushesResolutions() {
        // the upkeep thread never manages to write a sidecar: only close's own flush can
        ChannelFactory noBackgroundFlush = new ChannelFactory() {
            @Override
            public FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
                if (path.toString().endsWith(".ack") && Thread.currentThread().getName().startsWith("jetsink-queue-upkeep")) {
                    throw new IOException("injected: sidecar not writable from the upkeep thread");
                }
                return FileChannel.open(path, options);
            }
        };
        QueueOptions options = small(100).withChannels(noBackgroundFlush);
        QueuedEntry kept;
        SegmentedQueue q = SegmentedQueue.open(dir, options);
        QueuedEntry resolved = append(q, "resolved");
        kept = append(q, "kept");
        q.resolve(resolved.seq());
        Thread.currentThread().interrupt();
        q.close();
        assertThat(Thread.interrupted()).as("interrupt status kept").isTrue();
        try (SegmentedQueue again = SegmentedQueue.open(dir, options)) {
            List<QueuedEntry> live = all(again);
            assertThat(live).containsExactly(kept);
        }
    }
}

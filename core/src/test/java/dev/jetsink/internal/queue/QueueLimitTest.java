package dev.jetsink.internal.queue;

import dev.jetsink.QueueFullException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.jetsink.internal.queue.QueueFixtures.all;
import static dev.jetsink.internal.queue.QueueFixtures.append;
import static dev.jetsink.internal.queue.QueueFixtures.meta;
import static dev.jetsink.internal.queue.QueueFixtures.payload;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** queue_limit (DESIGN.md "Configuration") and all-or-nothing reservations (DESIGN.md "Daemon"). */
class QueueLimitTest {
    @TempDir
    Path dir;

    private static QueueOptions limit(long n) {
        return QueueOptions.withLimit(n).withSegmentMaxRecords(4);
    }

    @Test
    void appendAtTheLimitFailsWithQueueFullAndNothingIsOverwritten() {
        try (SegmentedQueue q = SegmentedQueue.open(dir, limit(3))) {
            List<QueuedEntry> written = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                written.add(append(q, "e" + i));
            }
            assertThatThrownBy(() -> q.append(meta("e3"), payload("e3")).get())
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(QueueFullException.class)
                .hasMessageContaining("queue_limit 3");
            assertThat(all(q)).containsExactlyElementsOf(written);
            assertThat(q.read(written.get(0))).isEqualTo(payload("e0"));
        }
    }

    @Test
    void afterResolutionsAppendsSucceedAgain() {
        try (SegmentedQueue q = SegmentedQueue.open(dir, limit(2))) {
            QueuedEntry a = append(q, "a");
            append(q, "b");
            assertThat(q.append(meta("c"), payload("c"))).isCompletedExceptionally();
            q.resolve(a.seq());
            assertThat(append(q, "c").metadata().object()).isEqualTo("c");
            assertThat(q.liveCount()).isEqualTo(2);
        }
    }

    @Test
    void reservationBeyondTheLimitIsRefusedWholeAndReservedRoomIsHeld() {
        try (SegmentedQueue q = SegmentedQueue.open(dir, limit(5))) {
            append(q, "a");
            assertThatThrownBy(() -> q.reserve(5)).isInstanceOf(QueueFullException.class);
            assertThat(q.liveCount()).isEqualTo(1);
            try (Reservation r = q.reserve(3)) {
                // room held by the reservation is not available to others
                assertThatThrownBy(() -> q.reserve(2)).isInstanceOf(QueueFullException.class);
                r.append(meta("b"), payload("b")).join();
                assertThat(r.remaining()).isEqualTo(2);
            }
            // the unused two slots were given back
            q.reserve(3).close();
            assertThat(q.liveCount()).isEqualTo(2);
        }
    }

    @Test
    void reservationCannotAppendMoreThanItHolds() {
        try (SegmentedQueue q = SegmentedQueue.open(dir, limit(5)); Reservation r = q.reserve(1)) {
            r.append(meta("a"), payload("a")).join();
            assertThatThrownBy(() -> r.append(meta("b"), payload("b"))).isInstanceOf(IllegalStateException.class);
        }
    }
}

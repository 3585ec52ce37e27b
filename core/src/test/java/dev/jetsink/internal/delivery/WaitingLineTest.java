package dev.jetsink.internal.delivery;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WaitingLineTest {

    /** A queue of live sequences the line pages through, like QueueStore.live(afterSeq, max). */
    private final TreeSet<Long> live = new TreeSet<>();
    private int pages;

    private WaitingLine<Long> line(int pageSize) {
        return new WaitingLine<>((after, max) -> {
            pages++;
            return live.tailSet(after, false).stream().limit(max).toList();
        }, Long::longValue, pageSize, 0);
    }

    private List<Long> drain(WaitingLine<Long> line) {
        List<Long> out = new ArrayList<>();
        for (Optional<Long> next = line.poll(); next.isPresent(); next = line.poll()) {
            out.add(next.get());
        }
        return out;
    }

    @Test
    void offersEntriesOldestFirstPageByPage() {
        for (long s = 1; s <= 10; s++) {
            live.add(s);
        }
        WaitingLine<Long> line = line(3);
        assertThat(drain(line)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(pages).as("read in pages, never all at once").isGreaterThanOrEqualTo(4);
    }

    @Test
    void aReturnedEntrySlotsBackInBySequence() {
        for (long s = 1; s <= 6; s++) {
            live.add(s);
        }
        WaitingLine<Long> line = line(2);
        assertThat(line.poll()).contains(1L);
        assertThat(line.poll()).contains(2L);
        assertThat(line.poll()).contains(3L);
        line.putBack(2L);
        assertThat(drain(line)).containsExactly(2L, 4L, 5L, 6L);
    }

    @Test
    void anExhaustedEntryGoesBehindEverythingQueuedWhenItExhausted() {
        for (long s = 1; s <= 5; s++) {
            live.add(s);
        }
        WaitingLine<Long> line = line(2);
        assertThat(line.poll()).contains(1L);
        line.sendToBack(1L, 5);
        live.add(6L); // queued after the exhaustion: goes behind the exhausted entry
        assertThat(drain(line)).containsExactly(2L, 3L, 4L, 5L, 1L, 6L);
    }

    @Test
    void entriesAppendedLaterAreFoundOnTheNextPoll() {
        WaitingLine<Long> line = line(4);
        assertThat(line.hasNext()).isFalse();
        live.add(7L);
        assertThat(line.hasNext()).isTrue();
        assertThat(line.poll()).contains(7L);
    }
}

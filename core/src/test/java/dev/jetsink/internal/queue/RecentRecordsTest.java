package dev.jetsink.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class RecentRecordsTest {

    private static QueuedEntry entry(long seq, int length) {
        return new QueuedEntry(seq, "id-" + seq, Instant.EPOCH, QueueFixtures.meta("k"), length);
    }

    @Test
    void holdsCommittedEntriesUntilForgotten() {
        RecentRecords recent = new RecentRecords(100);
        recent.hold(entry(1, 10), new byte[10]);
        recent.hold(entry(2, 20), new byte[20]);

        assertThat(recent.get(1)).get().extracting(RecentRecords.Held::entry).isEqualTo(entry(1, 10));
        assertThat(recent.bytes()).isEqualTo(30);
        recent.forget(1);
        assertThat(recent.get(1)).isEmpty();
        assertThat(recent.get(2)).isPresent();
        assertThat(recent.bytes()).isEqualTo(20);
    }

    @Test
    void dropsTheOldestWhenOverItsBound() {
        RecentRecords recent = new RecentRecords(100);
        for (long seq = 1; seq <= 5; seq++) {
            recent.hold(entry(seq, 30), new byte[30]);
        }
        assertThat(recent.size()).isEqualTo(3);
        assertThat(recent.get(1)).isEmpty();
        assertThat(recent.get(2)).isEmpty();
        assertThat(recent.get(3)).isPresent();
        assertThat(recent.get(5)).isPresent();
        assertThat(recent.bytes()).isEqualTo(90);
    }

    @Test
    void aPayloadLargerThanTheBoundIsNotHeldAndCrowdsOutNothing() {
        RecentRecords recent = new RecentRecords(100);
        recent.hold(entry(1, 50), new byte[50]);
        recent.hold(entry(2, 101), new byte[101]);
        assertThat(recent.get(2)).isEmpty();
        assertThat(recent.get(1)).isPresent();
        assertThat(recent.bytes()).isEqualTo(50);
    }
}

package dev.jetsink.internal.publish;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Whether a delivered publish may hold the entry's {@code Jetsink-Sequence}: only a read-back copy says no. */
class DeliveredTest {

    @Test
    void aNumberIsTakenAsStoredUnlessTheReadBackCopyCarriesAnother() {
        assertThat(new Publisher.Delivered(false, "S", 7).mayHoldNumber(3)).as("stored by this publish").isTrue();
        assertThat(new Publisher.Delivered(true, "S", 7, Publisher.Delivered.UNKNOWN).mayHoldNumber(3))
            .as("a duplicate whose copy could not be read: counted as stored").isTrue();
        assertThat(new Publisher.Delivered(true, "S", 7, 3).mayHoldNumber(3)).as("the copy an earlier attempt stored").isTrue();
        assertThat(new Publisher.Delivered(true, "S", 7, 2).mayHoldNumber(3)).as("an older event's copy").isFalse();
        assertThat(new Publisher.Delivered(true, "S", 7, 0).mayHoldNumber(3)).as("a copy stored with no number").isFalse();
    }
}

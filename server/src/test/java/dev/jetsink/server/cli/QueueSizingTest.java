package dev.jetsink.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class QueueSizingTest {
    @Test
    void fiftyEventsPerSecondThroughAnHourNeedsOneHundredEightyThousandEntries() {
        assertThat(new QueueSizing(50, 3600).entries()).isEqualTo(180_000);
    }

    @Test
    void suggestedLimitAddsAQuarterOfHeadroom() {
        assertThat(new QueueSizing(50, 3600).suggestedLimit()).isEqualTo(225_000);
    }

    @Test
    void fractionalRatesRoundUpSoTheOutageStillFits() {
        QueueSizing q = new QueueSizing(0.5, 3);
        assertThat(q.entries()).isEqualTo(2);
        assertThat(q.suggestedLimit()).isEqualTo(3);
    }

    @Test
    void diskEstimateIsPayloadPlusEntryOverheadPerEntry() {
        // 100 entries (80 + 25 %) of 870 B payload and 130 B of record overhead
        assertThat(new QueueSizing(1, 80).diskBytes(870)).isEqualTo(100L * 1000);
    }

    @Test
    void rateAndOutageMustBePositive() {
        assertThatThrownBy(() -> new QueueSizing(0, 10)).hasMessageContaining("--peak-rate");
        assertThatThrownBy(() -> new QueueSizing(Double.NaN, 10)).hasMessageContaining("--peak-rate");
        assertThatThrownBy(() -> new QueueSizing(5, 0)).hasMessageContaining("--outage-secs");
    }
}

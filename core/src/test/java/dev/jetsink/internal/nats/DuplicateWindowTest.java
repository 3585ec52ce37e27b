package dev.jetsink.internal.nats;

import dev.jetsink.internal.delivery.RetrySchedule;
import java.time.Duration;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DuplicateWindowTest {

    @Test
    void requiredWindowIs274SecondsAtAckTimeout30() {
        assertThat(DuplicateWindow.requiredSeconds(30)).isEqualTo(274);
        assertThat(DuplicateWindow.required(30)).isEqualTo(Duration.ofSeconds(274));
    }

    @Test
    void requiredWindowIs724SecondsAtAckTimeout120() {
        assertThat(DuplicateWindow.requiredSeconds(120)).isEqualTo(724);
    }

    @Test
    void eachExtraSecondOfAckTimeoutAddsFiveSeconds() {
        assertThat(DuplicateWindow.requiredSeconds(11) - DuplicateWindow.requiredSeconds(10)).isEqualTo(5);
    }

    @Test
    void formulaTermsMatchTheRetrySchedule() {
        long realizedBackoff = RetrySchedule.BASE_BACKOFF.stream().mapToLong(Duration::toSeconds).sum();
        assertThat(DuplicateWindow.ATTEMPTS_PER_CYCLE).isEqualTo(RetrySchedule.ATTEMPTS_PER_CYCLE);
        assertThat(DuplicateWindow.REALIZED_BACKOFF_SECS).isEqualTo(realizedBackoff);
        assertThat(DuplicateWindow.HEADROOM_SECS).isEqualTo(64);
    }

    @Test
    void nonPositiveAckTimeoutIsRejected() {
        assertThatThrownBy(() -> DuplicateWindow.requiredSeconds(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0s");
    }
}

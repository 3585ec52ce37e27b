package dev.jetsink.internal.targets;

import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import java.time.Duration;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Closing a target keeps its queued entries, whether or not it was ever started
 * (DESIGN.md "Delivery").
 */
class TargetCloseTest {

    @Test
    void closingATargetThatWasNeverStartedReturnsAndKeepsItsEntries() throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            TargetConfig config = TargetHarness.config(h.jetStreamEnv(TargetKind.NOTIFY));
            NatsTarget opened = NatsTarget.open(config, h.runtime());
            TargetHarness.sendAll(opened, TargetKind.NOTIFY, 0, 3);
            // Before the fix this waited forever for a dispatcher thread that never ran.
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> opened.close());
            try (NatsTarget reopened = NatsTarget.open(config, h.runtime())) {
                assertThat(reopened.queueLength()).isEqualTo(3);
            }
        }
    }
}

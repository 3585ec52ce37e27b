package dev.jetsink.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The intake gate SIGTERM closes (DESIGN.md "Daemon"): new requests are refused, those inside finish. */
class GateTest {

    @Test
    void closingRefusesNewRequestsAndWaitsForThoseInside() throws Exception {
        Gate gate = new Gate();
        assertThat(gate.enter()).isTrue();
        CompletableFuture<Boolean> drained = CompletableFuture.supplyAsync(() -> {
            try {
                return gate.closeAndDrain(Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(gate::isClosed);
        assertThat(gate.enter()).as("a request arriving after SIGTERM").isFalse();
        assertThat(drained).isNotDone();
        gate.leave();
        assertThat(drained.get(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void drainGivesUpAfterItsBound() throws Exception {
        Gate gate = new Gate();
        assertThat(gate.enter()).isTrue();
        assertThat(gate.closeAndDrain(Duration.ofMillis(50))).isFalse();
    }
}

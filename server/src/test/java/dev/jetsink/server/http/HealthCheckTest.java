package dev.jetsink.server.http;

import dev.jetsink.internal.targets.TargetHealth;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The bound on the whole health answer (DESIGN.md "Status"), with a check that never finishes. */
class HealthCheckTest {

    @Test
    void aTargetNotDoneInTimeReportsOfflineHealthCheckTimedOut() {
        ExecutorService pool = Executors.newCachedThreadPool();
        CountDownLatch never = new CountDownLatch(1);
        try {
            HealthCheck check = new HealthCheck(List.of(
                new HealthCheck.Probe("notify slow:nats", () -> {
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return new TargetHealth("notify slow:nats", TargetHealth.Status.ONLINE, "");
                }),
                new HealthCheck.Probe("audit fast:nats", () -> new TargetHealth("audit fast:nats", TargetHealth.Status.ONLINE, ""))),
                List.of(), pool, Duration.ofMillis(300));
            long start = System.nanoTime();
            List<TargetHealth> results = check.run();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
            assertThat(results).containsExactly(
                new TargetHealth("notify slow:nats", TargetHealth.Status.OFFLINE, "health check timed out"),
                new TargetHealth("audit fast:nats", TargetHealth.Status.ONLINE, ""));
            assertThat(HealthCheck.healthy(results)).isFalse();
        } finally {
            never.countDown();
            pool.shutdownNow();
        }
    }
}

package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.server.testing.BalancedPair;
import dev.jetsink.server.testing.DeliveryAudit;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import dev.jetsink.testkit.FaultProxy;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Active-active (OPERATIONS.md section 16): two daemons behind nginx in front of an R3 stream
 * ({@link BalancedPair}); the senders re-send until they get a 2xx, as MinIO and Ceph do.
 *
 * <p>A daemon cut off from the brokers keeps taking events into its queue; killed mid-stream with
 * that backlog and started again on its queue, it delivers what it had queued, and
 * every event is in the stream once: an event both daemons took (the killed one wrote it, then died
 * before answering; nginx sent it to the other) carries the same content-derived msg id, and the
 * stream drops the second copy within its duplicate window. Where that ends (a daemon away longer
 * than the window) is {@code LongOutageDuplicatesProbe}'s, which takes minutes and runs when named.
 */
class ActiveActiveIT {

    private static final int EVENTS = FaultRig.count(1_500, 10_000);
    private static final int RATE = 500;
    private static final int SENDERS = 8;

    @Test
    void aDaemonKilledBehindTheBalancerLosesNothingAndNothingIsStoredTwice() throws Exception {
        try (BalancedPair pair = BalancedPair.start(Duration.ofMinutes(3), Map.of());
             EventLoad load = new EventLoad(pair::balancer, pair.rig.http(), 0, EVENTS, RATE).start(SENDERS)) {
            // a loses the brokers and keeps taking events into its queue; it is killed with that backlog
            pair.brokerLinksA.forEach(FaultProxy::refuse);
            load.awaitAcknowledged(EVENTS / 3, Duration.ofSeconds(120));
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> pair.rig.notifyQueueLength() >= 50);
            double queuedWhenKilled = pair.rig.notifyQueueLength();
            pair.rig.killDaemon();
            pair.brokerLinksA.forEach(FaultProxy::pass);
            load.awaitAcknowledged(2 * EVENTS / 3, Duration.ofSeconds(120));
            pair.rig.startDaemon();
            load.awaitAll(Duration.ofSeconds(180));
            System.out.println("active-active: daemon a held " + queuedWhenKilled + " queued events when killed");

            DeliveryAudit.Tally t = pair.audit("active-active kill", load);
            assertThat(t.lost()).as(t.line()).isZero();
            assertThat(t.duplicated()).as("an event both daemons took is stored once; " + t.line()).isZero();
            assertThat(t.inStreamOnce()).as(t.line()).isEqualTo(EVENTS);
            assertThat(t.messages()).as(t.line()).isEqualTo(EVENTS);
            assertThat(queuedWhenKilled).as("a was killed with a backlog, delivered after its return").isGreaterThanOrEqualTo(50);
            assertThat(pair.nginx.errorLog()).as("nginx retried on the other daemon while one was down")
                .containsAnyOf("Connection refused", "reset by peer", "prematurely closed");
        }
    }
}

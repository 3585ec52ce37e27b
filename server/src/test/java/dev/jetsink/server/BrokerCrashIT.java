package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.server.testing.DeliveryAudit;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Fault scenario 1: the broker is SIGKILLed and restarted on the same store several times
 * while events stream in over HTTP; the daemon keeps queueing and delivers everything once.
 */
class BrokerCrashIT {

    @Test
    void brokerKilledRepeatedlyMidStreamStillHoldsEveryAcknowledgedEventExactlyOnce() throws Exception {
        int events = FaultRig.count(2_000, 20_000);
        int kills = FaultRig.count(2, 10);
        int rate = FaultRig.count(400, 1_000);
        int[] strikes = FaultRig.faultPoints(new java.util.Random(FaultRig.seed("broker-sigkill")), events, kills);
        long started = System.nanoTime();
        try (FaultRig rig = FaultRig.notifyOnly().startDaemon();
             EventLoad load = new EventLoad(rig::base, rig.http(), events, rate).start(16)) {
            for (int k = 1; k <= kills; k++) {
                load.awaitAcknowledged(strikes[k - 1], Duration.ofSeconds(120));
                // down long enough for in-flight publishes to fail and the dispatcher to back off
                rig.crashBroker(Duration.ofMillis(300));
                // each crash must meet a connected daemon, not one still reconnecting after the last
                rig.awaitNatsConnections(k + 1, Duration.ofSeconds(60));
            }
            load.awaitAll(Duration.ofSeconds(180));
            boolean drained = rig.awaitDrained(events, Duration.ofSeconds(120));
            DeliveryAudit.Tally t = rig.audit("broker-sigkill kills=" + kills + " seconds="
                + Duration.ofNanos(System.nanoTime() - started).toSeconds(), load.acknowledged());
            assertThat(rig.daemonAlive()).as("daemon survived the broker crashes").isTrue();
            assertThat(load.count(EventLoad.NO_ANSWER)).as("the daemon answered every request; statuses %s",
                load.statuses()).isZero();
            assertThat(rig.logCount("NATS connection disconnected"))
                .as("the daemon saw every broker crash").isGreaterThanOrEqualTo(kills);
            assertThat(t.lost()).as(t.line() + "\n" + rig.nats.logTail(20)).isZero();
            assertThat(t.duplicated()).as(t.line()).isZero();
            assertThat(t.inStreamOnce()).as(t.line()).isEqualTo(events);
            assertThat(t.distinctMsgIds()).as(t.line()).isEqualTo(t.messages());
            assertThat(t.failedMessages()).as("no failed records, no ingest rejections; " + t.line()).isZero();
            assertThat(drained).as("queue drained; " + t.line()).isTrue();
        }
    }
}

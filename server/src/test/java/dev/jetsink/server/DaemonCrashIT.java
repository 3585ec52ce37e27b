package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Issue 6, fault scenario 2: the daemon itself is SIGKILLed and restarted several times while
 * events stream in; the sender keeps retrying whatever was not answered 200. Nothing acknowledged
 * is lost, and the broker never stores one queue entry twice (distinct msg ids == messages): the
 * only duplicates allowed are events the sender re-sent after an attempt it got no answer to.
 */
class DaemonCrashIT {

    @Test
    void daemonKilledRepeatedlyMidStreamLosesNoAcknowledgedEvent() throws Exception {
        int events = FaultRig.count(2_000, 20_000);
        int kills = FaultRig.count(2, 10);
        int rate = FaultRig.count(400, 1_000);
        int[] strikes = FaultRig.faultPoints(new java.util.Random(FaultRig.seed("daemon-sigkill")), events, kills);
        long started = System.nanoTime();
        try (FaultRig rig = FaultRig.notifyOnly().startDaemon();
             EventLoad load = new EventLoad(rig::base, rig.http(), events, rate).start(8)) {
            for (int k = 1; k <= kills; k++) {
                load.awaitAcknowledged(strikes[k - 1], Duration.ofSeconds(180));
                rig.killDaemon();
                rig.startDaemon();
            }
            load.awaitAll(Duration.ofSeconds(180));
            boolean drained = rig.awaitDrained(events, Duration.ofSeconds(120));
            DeliveryAudit.Tally t = rig.audit("daemon-sigkill kills=" + kills + " seconds="
                + Duration.ofNanos(System.nanoTime() - started).toSeconds() + " unanswered_attempts="
                + load.count(EventLoad.NO_ANSWER), load.acknowledged());
            assertThat(t.lost()).as(t.line() + "\n" + rig.daemonLog()).isZero();
            assertThat(t.inStreamOnce() + t.duplicated()).as(t.line()).isEqualTo(events);
            assertThat(t.distinctMsgIds()).as("no queue entry stored twice; " + t.line()).isEqualTo(t.messages());
            assertThat(load.ambiguous()).as("only events re-sent after an unanswered attempt are duplicated; " + t.line())
                .containsAll(t.duplicatedEvents());
            assertThat(t.failedMessages()).as("no failed records, no ingest rejections; " + t.line()).isZero();
            assertThat(drained).as("queue drained; " + t.line()).isTrue();
        }
    }
}

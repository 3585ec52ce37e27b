package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.server.testing.DeliveryAudit;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Fault scenario 2, with the content msg ids' promise: the daemon itself is SIGKILLed and restarted
 * several times while 16 senders stream events in, each re-sending the same bytes until it gets a
 * 200, as MinIO does from its queue_dir. Nothing acknowledged is lost, and every event is in the
 * stream exactly once: a re-send of an event whose first attempt was queued before the kill gets
 * the same content-derived msg id, and the stream's duplicate window drops it.
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
             EventLoad load = new EventLoad(rig::base, rig.http(), events, rate).start(16)) {
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
            assertThat(t.duplicated()).as("re-sent events are stored once; " + t.line()).isZero();
            assertThat(t.inStreamOnce()).as(t.line()).isEqualTo(events);
            assertThat(t.distinctMsgIds()).as("no msg id stored twice; " + t.line()).isEqualTo(t.messages());
            assertThat(t.failedMessages()).as("no failed records, no ingest rejections; " + t.line()).isZero();
            assertThat(drained).as("queue drained; " + t.line()).isTrue();
        }
    }
}

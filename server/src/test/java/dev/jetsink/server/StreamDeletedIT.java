package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.server.testing.DeliveryAudit;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.Streams;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The stream is deleted while events stream in, and recreated with the same config a
 * moment later (DESIGN.md "Stream validation and verdict": a deleted stream answers publishes
 * with 503 No Responders, a transient outcome that resets the verdict). Entries stay queued while
 * the stream is gone, nothing reaches the failed store, and delivery resumes into the new stream.
 *
 * <p>Deleting the stream also deletes the evidence of what had been delivered into it. So the
 * daemon is paused (SIGSTOP) for the instant of the deletion: publishes already on the wire are
 * stored, the old stream is read whole, deleted, and the daemon continues (its acks for the stored
 * publishes wait in the socket). Each acknowledged event must then be in exactly one of the old
 * stream's last contents, the new stream, the failed store or the live queue.
 */
class StreamDeletedIT {

    private static final String VALIDATION_FAILED = "JetStream stream validation failed";

    @Test
    void streamDeletedAndRecreatedMidStreamLosesNothingAcknowledgedAndDeliveryResumes() throws Exception {
        int events = FaultRig.count(2_000, 20_000);
        int rate = FaultRig.count(400, 1_000);
        long started = System.nanoTime();
        try (FaultRig rig = FaultRig.notifyOnly().startDaemon();
             EventLoad load = new EventLoad(rig::base, rig.http(), events, rate).start(8)) {
            load.awaitAcknowledged(events / 3, Duration.ofSeconds(120));

            int validationFailures = rig.logCount(VALIDATION_FAILED);
            rig.signalDaemon("STOP");
            long pausedAt = System.nanoTime();
            long pausedMs;
            List<StoredMessage> deleted;
            try {
                // publishes already written to the socket must reach the stream before it is read:
                // wait until it stops growing rather than a fixed time a loaded broker may outlast;
                // bounded well inside the daemon's 10 s ack timeout, which a longer pause would let
                // expire on acks already waiting in its socket (and the entry would be sent again)
                deleted = rig.readSettledStream(Duration.ofMillis(500), Duration.ofSeconds(6));
                Streams.delete(rig.admin(), FaultRig.STREAM);
                pausedMs = Duration.ofNanos(System.nanoTime() - pausedAt).toMillis();
            } finally {
                rig.signalDaemon("CONT");
            }
            int ackedAtDeletion = load.acknowledgedCount();
            // the stream stays gone while ingest keeps acknowledging and until the dispatcher has
            // found it gone (on a loaded machine that can take longer than any fixed pause)
            load.awaitAcknowledged(ackedAtDeletion + 100, Duration.ofSeconds(60));
            Awaitility.await("the daemon finds the stream gone").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .until(() -> rig.logCount(VALIDATION_FAILED) > validationFailures);
            rig.createStream();

            load.awaitAll(Duration.ofSeconds(180));
            boolean drained = rig.awaitDrained(events - deleted.size(), Duration.ofSeconds(120));
            List<StoredMessage> recreated = rig.readStream();
            List<StoredMessage> both = new ArrayList<>(deleted);
            both.addAll(recreated);
            DeliveryAudit.Tally t = rig.audit("stream-deleted seconds=" + Duration.ofNanos(System.nanoTime() - started)
                .toSeconds() + " paused_ms=" + pausedMs + " in_deleted_stream=" + deleted.size() + " in_recreated_stream=" + recreated.size(),
                load.acknowledged(), both);

            assertThat(rig.daemonAlive()).isTrue();
            assertThat(rig.logCount(VALIDATION_FAILED))
                .as("the daemon found the stream gone and kept the entries queued").isGreaterThanOrEqualTo(1);
            assertThat(deleted).as("the deletion came mid-stream, after deliveries").isNotEmpty();
            assertThat(recreated).as("delivery resumed into the recreated stream; " + t.line()).isNotEmpty();
            assertThat(t.lost()).as(t.line() + "\n" + rig.daemonLog()).isZero();
            assertThat(t.duplicated()).as("no event in both streams or twice in one; " + t.line()).isZero();
            assertThat(t.inStreamOnce()).as(t.line()).isEqualTo(events);
            assertThat(t.failedStore()).as("a deleted stream is transient: nothing in the failed store; " + t.line()).isZero();
            assertThat(t.distinctMsgIds()).as(t.line()).isEqualTo(t.messages());
            assertThat(t.failedMessages()).as("no failed records, no ingest rejections; " + t.line()).isZero();
            assertThat(load.statuses().keySet()).as("ingest kept answering 200 while the stream was gone; "
                + load.statuses()).containsOnly(200);
            assertThat(drained).as("queue drained; " + t.line()).isTrue();
        }
    }
}

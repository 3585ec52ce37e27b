package dev.jetsink.server;

import dev.jetsink.internal.event.Json;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.DeliveryAudit;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import dev.jetsink.server.testing.ServeProcess;
import dev.jetsink.testkit.StoredMessage;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two daemons: how users scale out. Two {@code serve} processes, each with its own queue
 * directory, publish into one stream at once, each fed its own range of events. Every acknowledged
 * event is stored once, and no {@code Nats-Msg-Id} of one daemon's events appears among the
 * other's (DESIGN.md "Msg ids": ids are unique across instances writing one stream, so the
 * duplicate window never swallows one daemon's event as a copy of the other's).
 */
class TwoDaemonsIT {

    @Test
    void twoDaemonsPublishingIntoOneStreamStoreEveryAcknowledgedEventOnceWithNoSharedMsgId() throws Exception {
        int perDaemon = FaultRig.count(1_500, 10_000);
        int rate = FaultRig.count(400, 1_000);
        long started = System.nanoTime();
        Path queueB = Files.createTempDirectory("jetsink-faults-b");
        try (FaultRig rig = FaultRig.notifyOnly().startDaemon()) {
            Map<String, String> envB = new HashMap<>(rig.env);
            envB.put(TargetKind.NOTIFY.envPrefix() + "QUEUE_DIR", queueB.toString());
            try (ServeProcess daemonB = ServeProcess.start(envB)) {
                URI baseB = URI.create("http://127.0.0.1:" + daemonB.awaitPort(FaultRig.START));
                try (EventLoad loadA = new EventLoad(rig::base, rig.http(), 0, perDaemon, rate).start(4);
                     EventLoad loadB = new EventLoad(() -> baseB, rig.http(), perDaemon, perDaemon, rate).start(4)) {
                    loadA.awaitAll(Duration.ofSeconds(120));
                    loadB.awaitAll(Duration.ofSeconds(120));
                    boolean drained = awaitBothDrained(rig, baseB, 2L * perDaemon);
                    List<StoredMessage> stream = rig.readStream();
                    String seconds = " seconds=" + Duration.ofNanos(System.nanoTime() - started).toSeconds();
                    DeliveryAudit.Tally a = DeliveryAudit.of("two-daemons daemon=a" + seconds, loadA.acknowledged(), stream,
                        rig.notifyQueue(), (long) rig.metric(TargetKind.NOTIFY.metricPrefix() + "failed_messages")).print();
                    DeliveryAudit.Tally b = DeliveryAudit.of("two-daemons daemon=b" + seconds, loadB.acknowledged(), stream,
                        queueB.resolve("notify-nats-_"),
                        (long) rig.metric(baseB, TargetKind.NOTIFY.metricPrefix() + "failed_messages")).print();
                    Set<String> idsA = msgIds(stream, 0, perDaemon);
                    Set<String> idsB = msgIds(stream, perDaemon, 2 * perDaemon);
                    Set<String> shared = new HashSet<>(idsA);
                    shared.retainAll(idsB);
                    System.out.println("fault scenario=two-daemons msg_ids_a=" + idsA.size() + " msg_ids_b=" + idsB.size()
                        + " shared_msg_ids=" + shared.size() + " messages=" + stream.size());

                    for (DeliveryAudit.Tally t : List.of(a, b)) {
                        assertThat(t.lost()).as(t.line()).isZero();
                        assertThat(t.duplicated()).as(t.line()).isZero();
                        assertThat(t.inStreamOnce()).as(t.line()).isEqualTo(perDaemon);
                        assertThat(t.failedMessages()).as("no failed records, no ingest rejections; " + t.line()).isZero();
                    }
                    assertThat(shared).as("no msg id shared between the daemons").isEmpty();
                    assertThat(idsA).as("one msg id per event of daemon a").hasSize(perDaemon);
                    assertThat(idsB).as("one msg id per event of daemon b").hasSize(perDaemon);
                    assertThat(stream).as("nothing but the two loads' events").hasSize(2 * perDaemon);
                    assertThat(daemonB.process.isAlive()).isTrue();
                    assertThat(rig.daemonAlive()).isTrue();
                    assertThat(drained).as("both queues drained; " + a.line() + "\n" + b.line()).isTrue();
                }
            }
        } finally {
            DaemonHarness.deleteTree(queueB);
        }
    }

    private static boolean awaitBothDrained(FaultRig rig, URI baseB, long messages) {
        try {
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> rig.notifyQueueLength() == 0
                    && rig.metric(baseB, TargetKind.NOTIFY.queueLengthMetric()) == 0
                    && rig.streamCount() >= messages);
            return true;
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            return false;
        }
    }

    /** The msg ids of the stored messages whose event number lies in {@code [from, to)}. */
    private static Set<String> msgIds(List<StoredMessage> stream, int from, int to) throws Exception {
        Set<String> ids = new HashSet<>();
        for (StoredMessage m : stream) {
            int n = EventLoad.numberOf(Json.READER.readTree(m.data()).path("Key").asText(""));
            if (n >= from && n < to) {
                m.msgId().ifPresent(ids::add);
            }
        }
        return ids;
    }
}

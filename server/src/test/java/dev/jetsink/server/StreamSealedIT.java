package dev.jetsink.server;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.server.testing.DeliveryAudit;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stream sealed mid-stream (DESIGN.md "Delivery", "Fault suite"): only the first 10109
 * after a cached PASS is terminal, so at most one entry reaches the failed store; everything else
 * stays queued while the stream is sealed. Sealing cannot be undone, so the operator deletes the
 * stream and recreates it with the same configuration; the queue then delivers the rest. The sealed
 * stream's content is read before the delete, so every acknowledged event is accounted for across
 * both streams.
 *
 * <p>Tagged {@code broker}: the compatibility pass runs it on the oldest and previous servers too.
 */
@Tag("broker")
class StreamSealedIT {

    @Test
    void sealingMidStreamMovesAtMostOneEntryToTheFailedStoreAndTheRestDeliverAfterRecreate() throws Exception {
        int events = FaultRig.count(2_000, 20_000);
        int rate = FaultRig.count(400, 1_000);
        long started = System.nanoTime();
        try (FaultRig rig = FaultRig.notifyOnly().startDaemon();
             EventLoad load = new EventLoad(rig::base, rig.http(), events, rate).start(8)) {
            load.awaitAcknowledged(events / 3, Duration.ofSeconds(60));
            int failedBefore = rig.logCount("JetStream stream validation failed");
            Streams.seal(rig.admin(), FaultRig.STREAM);
            // the daemon has noticed the seal (a 10109 reset the verdict, a re-validation found it
            // sealed) and the load keeps being acknowledged into the queue meanwhile
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> rig.logCount("JetStream stream validation failed") > failedBefore);
            int ackedAtSeal = load.acknowledgedCount();
            load.awaitAcknowledged(Math.min(events, ackedAtSeal + rate / 2), Duration.ofSeconds(60));
            assertThat(rig.notifyQueueLength()).as("entries stay queued while the stream is sealed").isPositive();
            List<StoredMessage> sealedContent = rig.readStream();
            assertThat(rig.streamCount()).as("a sealed stream takes no publish").isEqualTo(sealedContent.size());
            Streams.delete(rig.admin(), FaultRig.STREAM);
            Streams.create(rig.admin(), StreamSpec.of(FaultRig.STREAM, FaultRig.SUBJECT)
                .duplicateWindow(Duration.ofMinutes(5)).build());

            load.awaitAll(Duration.ofSeconds(120));
            Set<Integer> failed = failedEvents(rig);
            Set<Integer> sealedEvents = numbers(sealedContent);
            long expectedAfterRecreate = events - failed.size() - sealedEvents.size();
            boolean drained = rig.awaitDrained(expectedAfterRecreate, Duration.ofSeconds(60));
            List<StoredMessage> recreated = rig.readStream();
            List<StoredMessage> both = new ArrayList<>(sealedContent);
            both.addAll(recreated);
            long failedMessages = (long) rig.metric(dev.jetsink.internal.config.TargetKind.NOTIFY.metricPrefix() + "failed_messages");
            DeliveryAudit.Tally t = DeliveryAudit.of("stream-sealed seconds="
                    + Duration.ofNanos(System.nanoTime() - started).toSeconds() + " sealed_stream=" + sealedContent.size()
                    + " recreated_stream=" + recreated.size(), load.acknowledged(), both, rig.notifyQueue(), failedMessages)
                .print();
            int ingestRejections = load.statuses().entrySet().stream()
                .filter(e -> e.getKey() >= 400 && e.getKey() < 500).mapToInt(e -> e.getValue()).sum();

            assertThat(failed).as("at most one entry in the failed store after a seal; " + t.line()).hasSizeLessThanOrEqualTo(1);
            assertThat(t.failedStore()).as("each failed record is an acknowledged event; " + t.line()).isEqualTo(failed.size());
            Set<Integer> stored = numbers(both);
            assertThat(stored).as("a failed record is for an event not in the stream").doesNotContainAnyElementsOf(failed);
            assertThat(t.lost()).as(t.line() + "\n" + rig.daemonLog()).isZero();
            assertThat(t.duplicated()).as(t.line()).isZero();
            assertThat(t.queued()).as(t.line()).isZero();
            assertThat(t.inStreamOnce()).as(t.line()).isEqualTo(events - failed.size());
            assertThat(numbers(recreated)).as("every event acknowledged after the seal is in the recreated stream")
                .containsAll(difference(load.acknowledged(), sealedEvents, failed));
            assertThat(failedMessages).as("failed_messages = failed records + ingest rejections; " + t.line())
                .isEqualTo(failed.size() + ingestRejections);
            assertThat(drained).as("queue drained; " + t.line()).isTrue();
        }
    }

    private static Set<Integer> failedEvents(FaultRig rig) throws Exception {
        Set<Integer> out = new HashSet<>();
        if (java.nio.file.Files.isDirectory(rig.notifyQueue())) {
            for (FailedEventStore.StoredFile f : FailedEventStore.list(rig.notifyQueue())) {
                var r = FailedEventStore.read(f.path());
                out.add(EventLoad.numberOf(r.bucket() + "/" + r.object()));
            }
        }
        return out;
    }

    private static Set<Integer> numbers(List<StoredMessage> messages) throws Exception {
        Set<Integer> out = new HashSet<>();
        for (StoredMessage m : messages) {
            JsonNode json = Json.READER.readTree(m.data());
            out.add(EventLoad.numberOf(json.path("Key").asText("")));
        }
        return out;
    }

    private static Set<Integer> difference(Set<Integer> all, Set<Integer> a, Set<Integer> b) {
        Set<Integer> out = new HashSet<>(all);
        out.removeAll(a);
        out.removeAll(b);
        return out;
    }
}

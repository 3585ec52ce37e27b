package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.server.testing.DeliveryAudit;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The "unexpected stream" case (DESIGN.md "Stream validation and verdict", "Fault suite"):
 * mid-stream the configured stream stops capturing the publish subject and another stream captures
 * it. jetsink publishes with {@code expectedStream}, so the server refuses each publish before
 * storing it: no stray copy in the other stream, a warning naming both streams, and the entries
 * wait in the queue. Once the operator restores the configured stream, everything acknowledged is
 * delivered exactly once.
 *
 * <p>The two stream changes cannot be made at once: a publish falling between them meets no stream
 * (503 No Responders), resets the verdict, and later attempts fail validation before publishing,
 * whose error then names the capturing stream. The first test therefore makes the change while
 * nothing is in flight (a first batch drained, verdict PASS cached), so its first publish meets
 * the capturing stream and must come back as 10060; the second makes it under live load, where
 * either signal may come first, and holds the same delivery invariant.
 */
class SubjectCapturedIT {

    static final String OTHER = "CAPTURING";
    static final String PARKED_SUBJECT = "rustfs.parked";
    static final String WARNING = "JetStream publish acknowledged by an unexpected stream";
    static final String VALIDATION_NAMES_OTHER = "is captured by stream " + OTHER + " instead";

    @Test
    void anotherStreamCapturingTheSubjectGetsNoCopyAndEverythingDeliversOnceAfterRepair() throws Exception {
        int events = FaultRig.count(2_000, 20_000);
        int rate = FaultRig.count(400, 1_000);
        long started = System.nanoTime();
        try (FaultRig rig = FaultRig.notifyOnly().startDaemon();
             EventLoad load = new EventLoad(rig::base, rig.http(), events, rate)) {
            int firstBatch = FaultRig.count(200, events / 3);
            Set<Integer> acknowledged = new HashSet<>();
            for (int n = events; n < events + firstBatch; n++) {
                // numbered after the load's events, so the two sets never share a key
                assertThat(rig.post("/notify", "application/json", EventLoad.body(n).getBytes(StandardCharsets.UTF_8))
                    .statusCode()).isEqualTo(200);
                acknowledged.add(n);
            }
            assertThat(rig.awaitDrained(firstBatch, Duration.ofSeconds(60))).as("first batch delivered").isTrue();
            long firstBatchMs = Duration.ofNanos(System.nanoTime() - started).toMillis();
            Streams.update(rig.admin(), FaultRig.STREAM, b -> b.subjects(PARKED_SUBJECT));
            Streams.create(rig.admin(), StreamSpec.of(OTHER, FaultRig.SUBJECT).duplicateWindow(Duration.ofMinutes(5)).build());
            load.start(8);
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> rig.logCount(WARNING) >= 1);
            int ackedAtWarning = load.acknowledgedCount();
            long warningMs = Duration.ofNanos(System.nanoTime() - started).toMillis();
            load.awaitAcknowledged(Math.min(events, ackedAtWarning + rate / 2), Duration.ofSeconds(60));
            long storedWhileCaptured = rig.streamCount();
            double queuedWhileCaptured = rig.notifyQueueLength();
            assertThat(queuedWhileCaptured).as("entries stay queued while another stream captures the subject").isPositive();
            assertThat(storedWhileCaptured).as("the configured stream took nothing after the first batch").isEqualTo(firstBatch);
            assertThat(Streams.readAll(rig.admin(), OTHER)).as("no stray copy in the capturing stream").isEmpty();
            List<String> warnings = rig.daemonLog().lines().filter(l -> l.contains(WARNING)).toList();
            assertThat(warnings).as("the warning names the configured and the capturing stream").isNotEmpty()
                .allSatisfy(l -> assertThat(l).contains("stream=" + FaultRig.STREAM).contains("capturing_stream=" + OTHER));

            Streams.delete(rig.admin(), OTHER);
            Streams.update(rig.admin(), FaultRig.STREAM, b -> b.subjects(FaultRig.SUBJECT));
            load.awaitAll(Duration.ofSeconds(120));
            acknowledged.addAll(load.acknowledged());
            boolean drained = rig.awaitDrained(events + firstBatch, Duration.ofSeconds(60));
            DeliveryAudit.Tally t = rig.audit("subject-captured seconds="
                + Duration.ofNanos(System.nanoTime() - started).toSeconds() + " stored_while_captured=" + storedWhileCaptured
                + " queued_while_captured=" + (long) queuedWhileCaptured + " warnings=" + warnings.size()
                + " first_batch_ms=" + firstBatchMs + " warning_ms=" + warningMs, acknowledged);
            assertThat(t.lost()).as(t.line() + "\n" + rig.daemonLog()).isZero();
            assertThat(t.duplicated()).as(t.line()).isZero();
            assertThat(t.inStreamOnce()).as(t.line()).isEqualTo(events + firstBatch);
            assertThat(t.failedStore()).as("nothing in the failed store; " + t.line()).isZero();
            assertThat(rig.notifyQueue().resolve("failed")).as("no failed store was created").doesNotExist();
            assertThat(t.distinctMsgIds()).as(t.line()).isEqualTo(t.messages());
            assertThat(t.failedMessages()).as("no failed records, no ingest rejections; " + t.line()).isZero();
            assertThat(drained).as("queue drained; " + t.line()).isTrue();
        }
    }

    @Test
    void captureUnderLiveLoadIsReportedAndEverythingDeliversOnceAfterRepair() throws Exception {
        int events = FaultRig.count(3_000, 20_000);
        int rate = FaultRig.count(500, 1_000);
        long started = System.nanoTime();
        try (FaultRig rig = FaultRig.notifyOnly().startDaemon();
             EventLoad load = new EventLoad(rig::base, rig.http(), events, rate).start(8)) {
            load.awaitAcknowledged(events / 3, Duration.ofSeconds(60));
            Streams.update(rig.admin(), FaultRig.STREAM, b -> b.subjects(PARKED_SUBJECT));
            Streams.create(rig.admin(), StreamSpec.of(OTHER, FaultRig.SUBJECT).duplicateWindow(Duration.ofMinutes(5)).build());
            long captureMs = Duration.ofNanos(System.nanoTime() - started).toMillis();
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> rig.logCount(VALIDATION_NAMES_OTHER) + rig.logCount(WARNING) >= 1);
            long storedAtSignal = rig.streamCount();
            int ackedAtSignal = load.acknowledgedCount();
            load.awaitAcknowledged(Math.min(events, ackedAtSignal + rate / 2), Duration.ofSeconds(60));
            long storedWhileCaptured = rig.streamCount();
            double queuedWhileCaptured = rig.notifyQueueLength();
            assertThat(storedWhileCaptured).as("the configured stream takes nothing while it does not capture the subject")
                .isEqualTo(storedAtSignal);
            assertThat(queuedWhileCaptured).as("entries stay queued while another stream captures the subject").isPositive();
            assertThat(Streams.readAll(rig.admin(), OTHER)).as("no stray copy in the capturing stream").isEmpty();
            List<String> reports = rig.daemonLog().lines()
                .filter(l -> l.contains(WARNING) || l.contains(VALIDATION_NAMES_OTHER)).toList();
            assertThat(reports).as("the daemon names the configured and the capturing stream")
                .allSatisfy(l -> assertThat(l).contains("stream=" + FaultRig.STREAM).contains(OTHER));

            Streams.delete(rig.admin(), OTHER);
            Streams.update(rig.admin(), FaultRig.STREAM, b -> b.subjects(FaultRig.SUBJECT));
            load.awaitAll(Duration.ofSeconds(120));
            boolean drained = rig.awaitDrained(events, Duration.ofSeconds(60));
            DeliveryAudit.Tally t = rig.audit("subject-captured-live seconds="
                + Duration.ofNanos(System.nanoTime() - started).toSeconds() + " capture_ms=" + captureMs
                + " stored_while_captured=" + storedWhileCaptured + " queued_while_captured=" + (long) queuedWhileCaptured
                + " unexpected_stream_warnings=" + rig.logCount(WARNING)
                + " validation_errors_naming_it=" + rig.logCount(VALIDATION_NAMES_OTHER), load.acknowledged());
            assertThat(t.lost()).as(t.line() + "\n" + rig.daemonLog()).isZero();
            assertThat(t.duplicated()).as(t.line()).isZero();
            assertThat(t.inStreamOnce()).as(t.line()).isEqualTo(events);
            assertThat(t.failedStore()).as("nothing in the failed store; " + t.line()).isZero();
            assertThat(t.distinctMsgIds()).as(t.line()).isEqualTo(t.messages());
            assertThat(t.failedMessages()).as("no failed records, no ingest rejections; " + t.line()).isZero();
            assertThat(drained).as("queue drained; " + t.line()).isTrue();
        }
    }
}

package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.server.testing.DeliveryAudit;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import dev.jetsink.testkit.Bytes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Fault scenario 4: queue segments damaged between two runs of the daemon
 * (DESIGN.md "Queue"). Events are queued while the broker is down, the daemon stops, one record is
 * damaged in place and garbage is appended as a torn last write; the next start reports the damage,
 * keeps going and delivers every other event.
 */
class CorruptSegmentIT {

    private static final int DAMAGED = 150;

    @Test
    void damagedSegmentIsReportedAndEveryOtherEventIsDelivered() throws Exception {
        int events = 300;
        long started = System.nanoTime();
        try (FaultRig rig = FaultRig.notifyOnly()) {
            rig.nats.kill();
            rig.startDaemon();
            try (EventLoad load = new EventLoad(rig::base, rig.http(), events, 5_000).start(4)) {
                load.awaitAll(Duration.ofSeconds(60));
                assertThat(rig.stopDaemon()).isZero();

                List<Path> segments;
                try (Stream<Path> s = Files.list(rig.notifyQueue().resolve("segments"))) {
                    segments = s.filter(p -> p.toString().endsWith(".log")).sorted().toList();
                }
                assertThat(segments).as("events queued while the broker was down").isNotEmpty();
                Path damaged = flipBytesOfEvent(segments, DAMAGED);
                Files.write(segments.get(segments.size() - 1), "torn write \u0000\u0001 garbage".getBytes(StandardCharsets.UTF_8),
                    StandardOpenOption.APPEND);

                rig.nats.restart();
                rig.startDaemon();
                boolean drained = rig.awaitDrained(events - 1, Duration.ofSeconds(60));
                double corrupt = rig.metric("jetsink_queue_corrupt_records_total");
                DeliveryAudit.Tally t = rig.audit("corrupt-segment seconds="
                    + Duration.ofNanos(System.nanoTime() - started).toSeconds() + " corrupt_records=" + (long) corrupt,
                    load.acknowledged());
                assertThat(corrupt).as("damage counted in jetsink_queue_corrupt_records_total").isGreaterThanOrEqualTo(1);
                assertThat(rig.daemonLog()).as("damage logged").contains("queue segment " + damaged, "damaged record", "torn tail");
                assertThat(t.lostEvents()).as("only the damaged record is missing; " + t.line()).containsExactly(DAMAGED);
                assertThat(t.inStreamOnce()).as(t.line()).isEqualTo(events - 1);
                assertThat(t.distinctMsgIds()).isEqualTo(t.messages());
                assertThat(t.failedStore()).as(t.line()).isZero();
                assertThat(t.failedMessages()).as("no failed records, no ingest rejections; " + t.line()).isZero();
                assertThat(drained).as("queue drained; " + t.line()).isTrue();
            }
        }
    }

    /** Inverts four bytes of event {@code n}'s object key in the segment holding it. */
    private static Path flipBytesOfEvent(List<Path> segments, int n) throws Exception {
        byte[] needle = ("\"" + EventLoad.key(n) + "\"").getBytes(StandardCharsets.UTF_8);
        for (Path segment : segments) {
            byte[] bytes = Files.readAllBytes(segment);
            int at = Bytes.indexOf(bytes, needle);
            if (at >= 0) {
                for (int i = 1; i <= 4; i++) {
                    bytes[at + i] ^= (byte) 0xFF;
                }
                Files.write(segment, bytes);
                return segment;
            }
        }
        throw new AssertionError("event " + n + " not found in " + segments);
    }
}

package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.server.testing.DeliveryAudit;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import dev.jetsink.server.testing.Tmpfs;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Fault scenario 5: the queue directory sits on a small tmpfs that a ballast file nearly
 * fills. With the broker down the queue grows until a write fails with ENOSPC: ingest answers 503,
 * nothing already acknowledged is lost, and once the ballast is removed ingest and, with the broker
 * back, delivery resume. Each event refused with 503 counts in {@code failed_messages}, as an
 * ingest rejection. Runs as root (it mounts); it never skips.
 */
class FullDiskIT {

    @Test
    void fullQueueDiskAnswers503LosesNothingAndResumesWhenSpaceFrees() throws Exception {
        // the freed 4 MiB holds about 2 400 queued events with the broker down: the same count in soak
        int events = 1_500;
        long started = System.nanoTime();
        try (Tmpfs disk = Tmpfs.mount("4m");
             FaultRig rig = FaultRig.notifyQueueIn(disk.dir)) {
            Path ballast = disk.dir.resolve("ballast");
            try (OutputStream out = Files.newOutputStream(ballast)) {
                out.write(new byte[4 * 1024 * 1024 - 640 * 1024]);
            }
            rig.nats.kill();
            rig.startDaemon();
            try (EventLoad load = new EventLoad(rig::base, rig.http(), events, 1_000).start(8)) {
                load.awaitAnswered(503, 10, Duration.ofSeconds(120));
                Set<Integer> ackedWhileFull = new HashSet<>(load.acknowledged());
                Files.delete(ballast);
                load.awaitAll(Duration.ofSeconds(180));
                rig.nats.restart();
                boolean drained = rig.awaitDrained(events, Duration.ofSeconds(120));
                DeliveryAudit.Tally t = rig.audit("full-disk seconds=" + Duration.ofNanos(System.nanoTime() - started)
                    .toSeconds() + " answered_503=" + load.count(503) + " acknowledged_before_space_freed="
                    + ackedWhileFull.size(), load.acknowledged());
                assertThat(rig.daemonAlive()).isTrue();
                assertThat(load.statuses().keySet()).as("only 200 and 503 answers; " + load.statuses())
                    .containsOnly(200, 503);
                assertThat(t.lost()).as(t.line() + "\n" + rig.daemonLog()).isZero();
                assertThat(t.inStreamOnce() + t.duplicated()).as(t.line()).isEqualTo(events);
                assertThat(load.refused()).as("only events once refused may be stored twice (their sender retried them); " + t.line())
                    .containsAll(t.duplicatedEvents());
                assertThat(t.distinctMsgIds()).as(t.line()).isEqualTo(t.messages());
                assertThat(rig.daemonLog()).contains("ingest failed to queue durably");
                long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
                assertThat(rig.logCount("ingest failed to queue durably"))
                    .as("logged once per 10 s with a count, not once per refusal (%d refused)", load.count(503))
                    .isLessThanOrEqualTo((int) (2 + seconds / 10));
                try (java.util.stream.Stream<Path> files = Files.walk(disk.dir)) {
                    assertThat(files.filter(f -> f.toString().endsWith(".log")).toList())
                        .as("refused appends leave no segment files behind").hasSizeLessThanOrEqualTo(3);
                }
                assertThat(t.failedStore()).as(t.line()).isZero();
                assertThat(t.failedMessages())
                    .as("failed_messages = failed records (none) + ingest rejections (one event per 503); " + t.line())
                    .isEqualTo(load.count(503));
                assertThat(drained).as("queue drained; " + t.line()).isTrue();
            }
        }
    }
}

package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.DeliveryAudit;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import dev.jetsink.server.testing.ServeProcess;
import dev.jetsink.testkit.Streams;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A host is lost with events in its queue (OPERATIONS.md section 15, "A lost host's queue"): its
 * queue directory, copied to another machine (here: another directory) while the host is dead, is
 * delivered by an ordinary {@code jetsink serve} pointed at the copy — every event once. When the
 * lost host comes back on its own copy within the stream's duplicate window, it delivers the same
 * events again and the stream drops every one of them as a duplicate: the msg ids derive from the
 * events' content, whichever daemon publishes them.
 */
class LostHostQueueIT {

    private static final int EVENTS = 400;

    @Test
    void aDeadHostsCopiedQueueIsDeliveredOnceByAnotherDaemonAndTheHostsReturnAddsNothing() throws Exception {
        Path rescueRoot = Files.createTempDirectory("jetsink-rescue");
        try (FaultRig rig = FaultRig.notifyOnly()) {
            // no stream while the host takes events: they stay in its queue, as in an outage
            Streams.delete(rig.admin(), FaultRig.STREAM);
            rig.startDaemon();
            java.util.Set<Integer> acknowledged;
            try (EventLoad load = new EventLoad(rig::base, rig.http(), 0, EVENTS, 1_000).start(4)) {
                load.awaitAll(Duration.ofSeconds(120));
                acknowledged = load.acknowledged();
            }
            assertThat(acknowledged).hasSize(EVENTS);
            assertThat(rig.notifyQueueLength()).isEqualTo(EVENTS);
            rig.killDaemon();

            Path lostRoot = rig.notifyQueue().getParent();
            copyTree(lostRoot, rescueRoot);
            rig.createStream();
            Map<String, String> rescueEnv = new HashMap<>(rig.env);
            rescueEnv.put(TargetKind.NOTIFY.envPrefix() + "QUEUE_DIR", rescueRoot.toString());
            try (ServeProcess rescue = ServeProcess.start(rescueEnv)) {
                URI base = URI.create("http://127.0.0.1:" + rescue.awaitPort(FaultRig.START));
                awaitDrained(rig, base, () -> rig.streamCount() >= EVENTS);
                DeliveryAudit.Tally t = DeliveryAudit.of("lost-host rescue", acknowledged, rig.readStream(),
                    rescueRoot.resolve("notify-nats-_"), (long) rig.metric(base, TargetKind.NOTIFY.metricPrefix() + "failed_messages"))
                    .print();
                assertThat(t.lost()).as(t.line()).isZero();
                assertThat(t.duplicated()).as(t.line()).isZero();
                assertThat(t.inStreamOnce()).as(t.line()).isEqualTo(EVENTS);
                assertThat(rescue.terminate(Duration.ofSeconds(30))).isZero();
            }

            // the lost host returns with its own copy of the queue and delivers it all again
            rig.startDaemon();
            awaitDrained(rig, rig.base(), () -> rig.metric("jetsink_duplicate_acks_total") >= EVENTS);
            assertThat(rig.metric("jetsink_duplicate_acks_total"))
                .as("every re-delivered event acknowledged as a duplicate").isEqualTo(EVENTS);
            DeliveryAudit.Tally after = rig.audit("lost-host returned", acknowledged);
            assertThat(after.inStreamOnce()).as(after.line()).isEqualTo(EVENTS);
            assertThat(after.duplicated()).as(after.line()).isZero();
            assertThat(after.messages()).as(after.line()).isEqualTo(EVENTS);
        } finally {
            DaemonHarness.deleteTree(rescueRoot);
        }
    }

    /** Until {@code done} holds and the notify queue of the daemon at {@code base} is empty. */
    private static void awaitDrained(FaultRig rig, URI base, java.util.concurrent.Callable<Boolean> done) {
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
            .until(() -> done.call() && rig.metric(base, TargetKind.NOTIFY.queueLengthMetric()) == 0);
    }

    /** {@code cp -a} of a stopped daemon's queue root: what an operator copies off a dead host's disk. */
    private static void copyTree(Path from, Path to) throws IOException {
        List<Path> all;
        try (Stream<Path> walk = Files.walk(from)) {
            all = walk.toList();
        }
        for (Path p : all) {
            Path target = to.resolve(from.relativize(p).toString());
            if (Files.isDirectory(p)) {
                Files.createDirectories(target);
            } else {
                Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}

package dev.jetsink.internal.targets;

import dev.jetsink.internal.config.ConfigLoader;
import dev.jetsink.internal.config.JetsinkConfig;
import dev.jetsink.internal.config.LoadedConfig;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.queue.QueueOptions;
import dev.jetsink.internal.queue.SegmentedQueue;
import dev.jetsink.lifecycle.LifecycleEvent.AttemptFailed;
import dev.jetsink.lifecycle.LifecycleEvent.EntryResolved;
import dev.jetsink.lifecycle.Outcome;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import io.nats.client.Message;
import io.nats.client.Subscription;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The notify stream-concurrency limit (DESIGN.md "Delivery") never starves a backlogged target, and
 * turning the JetStream path off delivers what it left queued over Core.
 */
class ConcurrencyAndPathTest {

    private static final int BACKLOG = 1200;
    private static final int QUEUED = 40;
    private static final int WINDOW = 32;
    /**
     * Half a backlog: a target that kept the permit while the other waited runs to its whole
     * backlog; with fair hand-overs runs stay within a few windows, more only when the machine is
     * so loaded that a waiting dispatcher misses its turn (a run of 512 = 16 windows was seen at
     * load average 13 on two cores).
     */
    private static final int MAX_RUN = BACKLOG / 2;

    @Test
    void streamConcurrencyOfOneStillDeliversTwoBackloggedNotifyTargets() throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createStream(StreamSpec.of(TargetHarness.STREAM, "rustfs.events.>")
                .duplicateWindow(Duration.ofSeconds(274)).build());
            String p = TargetKind.NOTIFY.envPrefix();
            Map<String, String> env = new HashMap<>();
            env.put(p + "ADDRESS", h.server.url());
            env.put(p + "JETSTREAM_ENABLE", "on");
            env.put(p + "JETSTREAM_STREAM_NAME", TargetHarness.STREAM);
            env.put(p + "JETSTREAM_ACK_TIMEOUT_SECS", "10");
            env.put(p + "QUEUE_DIR", h.queueRoot.toString());
            // A small window makes each backlog many fills, so the permit changes hands many times.
            env.put(p + "PUBLISH_WINDOW", Integer.toString(WINDOW));
            env.put(p + "ENABLE_A", "on");
            env.put(p + "SUBJECT_A", "rustfs.events.a");
            env.put(p + "ENABLE_B", "on");
            env.put(p + "SUBJECT_B", "rustfs.events.b");
            env.put("RUSTFS_NOTIFY_TARGET_STREAM_CONCURRENCY", "1");
            LoadedConfig loaded = ConfigLoader.load(env, Optional.empty());
            assertThat(loaded.errors()).isEmpty();
            JetsinkConfig config = loaded.config();
            assertThat(config.notifyStreamConcurrency()).isEqualTo(1);
            assertThat(config.targets(TargetKind.NOTIFY)).hasSize(2);
            for (TargetConfig c : config.targets(TargetKind.NOTIFY)) {
                queueBacklog(c, BACKLOG);
            }

            try (Targets targets = Targets.start(TargetKind.NOTIFY, config, h.runtime())) {
                h.events.awaitCount(EntryResolved.class, e -> true, 2 * BACKLOG, Duration.ofSeconds(90));
                assertThat(targets.targets()).allSatisfy(t -> assertThat(t.queueLength()).isZero());
            }

            List<String> order = h.events.all(EntryResolved.class).stream().map(EntryResolved::target).toList();
            Map<String, Long> perTarget = order.stream().collect(Collectors.groupingBy(s -> s, Collectors.counting()));
            assertThat(perTarget).containsOnly(
                Map.entry("notify a:nats", (long) BACKLOG), Map.entry("notify b:nats", (long) BACKLOG));
            // The permit changes hands fill by fill: while both have a backlog, neither target
            // delivers more than a few windows in a row (no starvation).
            assertThat(longestRunWhileBothPending(order)).as("longest run of one target's deliveries")
                .isLessThanOrEqualTo(MAX_RUN);
            List<StoredMessage> stored = h.readStream();
            assertThat(stored.stream().collect(Collectors.groupingBy(StoredMessage::subject, Collectors.counting())))
                .containsOnly(Map.entry("rustfs.events.a", (long) BACKLOG), Map.entry("rustfs.events.b", (long) BACKLOG));
            assertThat(stored.stream().map(m -> m.msgId().orElseThrow()).distinct()).hasSize(2 * BACKLOG);
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void turningJetStreamOffDeliversQueuedEntriesOverCore(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            Map<String, String> env = h.jetStreamEnv(kind);
            // The stream is missing: on the JetStream path every entry stays queued.
            try (NatsTarget js = NatsTarget.open(TargetHarness.config(env), h.runtime())) {
                js.start();
                TargetHarness.sendAll(js, kind, 0, QUEUED);
                AttemptFailed failed = h.events.await(AttemptFailed.class, e -> true, TargetHarness.AWAIT);
                assertThat(failed.outcome().cause()).isEqualTo(Outcome.Cause.STREAM_VALIDATION_FAILED);
                h.sleeper.awaitPending(Duration.ofSeconds(4), TargetHarness.AWAIT);
                assertThat(js.queueLength()).isEqualTo(QUEUED);
            }

            env.put(kind.envPrefix() + "JETSTREAM_ENABLE", "off");
            TargetConfig core = TargetHarness.config(env);
            Subscription sub = h.admin().subscribe(TargetHarness.SUBJECT);
            h.admin().flush(Duration.ofSeconds(5));
            NatsTarget t = h.start(core);

            Set<String> received = new HashSet<>();
            for (int i = 0; i < QUEUED; i++) {
                Message m = sub.nextMessage(TargetHarness.AWAIT);
                assertThat(m).as("message %d of %d over Core", i + 1, QUEUED).isNotNull();
                received.add(new String(m.getData(), StandardCharsets.UTF_8));
            }
            assertThat(received).isEqualTo(IntStream.range(0, QUEUED)
                .mapToObj(i -> new String(TargetHarness.event(kind, i).payload(), StandardCharsets.UTF_8))
                .collect(Collectors.toSet()));
            Awaitility.await().atMost(TargetHarness.AWAIT).until(() -> t.queueLength() == 0);
            assertThat(sub.nextMessage(Duration.ofMillis(300))).as("nothing delivered twice").isNull();
            assertThat(t.failedStore()).isEmpty();
            assertThat(Files.exists(FailedEventStore.directory(core.queuePath().orElseThrow())))
                .as("no failed/ directory").isFalse();
        }
    }

    /** The most consecutive deliveries by one target before either target's last delivery. */
    private static int longestRunWhileBothPending(List<String> order) {
        int end = order.stream().distinct().mapToInt(order::lastIndexOf).min().orElse(0);
        int longest = 0;
        int run = 0;
        for (int i = 0; i < end; i++) {
            run = i > 0 && order.get(i).equals(order.get(i - 1)) ? run + 1 : 1;
            longest = Math.max(longest, run);
        }
        return longest;
    }

    /** Puts {@code count} entries in the target's queue before it starts, as a restart with a backlog would. */
    private static void queueBacklog(TargetConfig c, int count) {
        try (SegmentedQueue q = SegmentedQueue.open(c.queuePath().orElseThrow(), QueueOptions.withLimit(c.queueLimit()))) {
            CompletableFuture<?>[] appended = IntStream.range(0, count).mapToObj(i -> {
                OutboundEvent e = TargetHarness.event(c.kind(), i);
                return q.append(e.metadata(), e.payload());
            }).toArray(CompletableFuture[]::new);
            CompletableFuture.allOf(appended).join();
        }
    }
}

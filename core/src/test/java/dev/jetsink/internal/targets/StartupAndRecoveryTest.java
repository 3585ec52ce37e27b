package dev.jetsink.internal.targets;

import ch.qos.logback.classic.Level;
import dev.jetsink.TargetUnavailableException;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.publish.StreamCheck;
import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.Outcome;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A target's life across restarts and broken start-ups (DESIGN.md "Delivery",
 * "Stream validation and verdict"): closing keeps entries, an unreachable broker or a missing
 * stream only delays delivery, a sealed stream fails init until the operator replaces it.
 */
class StartupAndRecoveryTest {

    private static final Duration DRAIN = Duration.ofSeconds(60);

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void closingMidStreamKeepsTheRestAndReopeningDeliversItExactlyOnce(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            TargetConfig config = TargetHarness.config(h.jetStreamEnv(kind));
            NatsTarget first = h.start(config);
            TargetHarness.sendAll(first, kind, 0, 100);
            h.awaitResolved(100);
            Set<String> deliveredBeforeClose = h.events.all(LifecycleEvent.EntryResolved.class).stream()
                .map(LifecycleEvent.EntryResolved::msgId).collect(Collectors.toSet());

            // A frozen server acks nothing: a full window is in flight and the rest waits when we close.
            h.server.pause();
            List<QueuedEntry> keptOnDisk;
            NatsTarget reopened;
            try {
                TargetHarness.sendAll(first, kind, 100, 2000);
                first.close(Duration.ofMillis(200));
                reopened = NatsTarget.open(config, h.runtime());
                keptOnDisk = reopened.queue().orElseThrow().live(0, 10_000);
            } finally {
                h.server.resume();
            }
            try (reopened) {
                assertThat(keptOnDisk).as("closing touches no queued entry").hasSize(2000);
                reopened.start();
                h.awaitDrained(reopened, DRAIN);

                Set<String> expected = new HashSet<>(deliveredBeforeClose);
                keptOnDisk.forEach(e -> expected.add(e.msgId()));
                assertThat(expected).hasSize(2100);
                List<StoredMessage> stored = h.readStream();
                assertThat(stored.stream().map(m -> m.msgId().orElseThrow()).collect(Collectors.toSet()))
                    .isEqualTo(expected);
                assertThat(stored).as("every msg id exactly once").hasSize(2100);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void eventsQueueWhileTheBrokerIsDownAtStartupAndDeliverWhenItStarts(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness(); CapturedLog logs = CapturedLog.of(TargetStartup.class)) {
            h.createDefaultStream();
            h.server.stop();
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(kind)));
            assertThat(logs.at(Level.ERROR)).anySatisfy(line -> assertThat(line)
                .contains("NATS connection failed at init").contains("target=\"" + t.displayId() + "\""));
            assertThat(t.initFailure()).as("an unreachable broker does not fail init").isEmpty();

            for (int i = 0; i < 50; i++) {
                TargetSends.send(t, TargetHarness.event(kind, i)).join();
                assertThat(t.queueLength()).isEqualTo(i + 1);
            }
            LifecycleEvent.AttemptFailed failed = h.events.await(LifecycleEvent.AttemptFailed.class, e -> true,
                TargetHarness.AWAIT);
            assertThat(failed.outcome().cause()).isEqualTo(Outcome.Cause.CONNECT_FAILED);
            assertThat(t.queueLength()).isEqualTo(50);
            Set<String> queued = msgIds(t.queue().orElseThrow().live(0, 100));

            h.server.restart();
            h.awaitDrained(t, DRAIN);
            List<StoredMessage> stored = h.readStream();
            assertThat(stored).hasSize(50);
            assertThat(stored.stream().map(m -> m.msgId().orElseThrow()).collect(Collectors.toSet())).isEqualTo(queued);
            assertThat(t.failedStore().orElseThrow().count()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void eventsQueueWhileTheStreamIsMissingAndDeliverOnceItIsCreated(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness(); CapturedLog logs = CapturedLog.of(StreamCheck.class)) {
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(kind)));
            assertThat(logs.at(Level.ERROR)).anySatisfy(line -> assertThat(line)
                .contains("JetStream stream validation failed")
                .contains("target=\"" + t.displayId() + "\"")
                .contains("stream EVENTS not found"));
            assertThat(t.initFailure()).as("a missing stream does not fail init").isEmpty();

            TargetHarness.sendAll(t, kind, 0, 20);
            LifecycleEvent.AttemptFailed failed = h.events.await(LifecycleEvent.AttemptFailed.class, e -> true,
                TargetHarness.AWAIT);
            assertThat(failed.outcome().cause()).isEqualTo(Outcome.Cause.STREAM_VALIDATION_FAILED);
            assertThat(t.queueLength()).isEqualTo(20);
            Set<String> queued = msgIds(t.queue().orElseThrow().live(0, 100));

            h.createDefaultStream();
            h.awaitDrained(t, DRAIN);
            assertThat(logs.at(Level.INFO)).contains(
                "JetStream stream validation succeeded target=\"" + t.displayId() + "\" stream=EVENTS");
            List<StoredMessage> stored = h.readStream();
            assertThat(stored).hasSize(20);
            assertThat(stored.stream().map(m -> m.msgId().orElseThrow()).collect(Collectors.toSet())).isEqualTo(queued);
            assertThat(t.failedStore().orElseThrow().count()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void sealedStreamAtStartupFailsInitUntilTheOperatorReplacesIt(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness(); CapturedLog logs = CapturedLog.of(TargetStartup.class)) {
            h.createDefaultStream();
            Streams.seal(h.admin(), TargetHarness.STREAM);
            h.createStream(StreamSpec.of("HEALTHY", "rustfs.healthy").duplicateWindow(Duration.ofSeconds(274)).build());
            Map<String, String> healthyEnv = instance(h.jetStreamEnv(kind), kind, "healthy");
            healthyEnv.put(kind.envPrefix() + "SUBJECT_HEALTHY", "rustfs.healthy");
            healthyEnv.put(kind.envPrefix() + "JETSTREAM_STREAM_NAME_HEALTHY", "HEALTHY");
            TargetRuntime runtime = h.runtime();

            try (NatsTarget sealed = NatsTarget.open(TargetHarness.config(instance(h.jetStreamEnv(kind), kind, "sealed")),
                     runtime);
                 NatsTarget healthy = NatsTarget.open(TargetHarness.config(healthyEnv), runtime)) {
                sealed.start();
                healthy.start();

                assertThat(sealed.initFailure()).contains("stream EVENTS is sealed");
                assertThat(sealed.health().status()).isEqualTo(TargetHealth.Status.ERROR);
                assertThat(logs.at(Level.ERROR)).anySatisfy(line -> assertThat(line)
                    .contains("target init failed").contains("target=\"" + sealed.displayId() + "\"")
                    .contains("stream EVENTS is sealed"));
                assertThatThrownBy(() -> TargetSends.send(sealed, TargetHarness.event(kind, 1)).join())
                    .isInstanceOf(CompletionException.class)
                    .cause().isInstanceOf(TargetUnavailableException.class)
                    .hasMessage("target unavailable: stream EVENTS is sealed");
                assertThat(sealed.queueLength()).as("nothing queued for a target whose init failed").isZero();
                assertThat(sealed.counters().acceptedCount()).isZero();

                // The other target of the same runtime is unaffected.
                assertThat(healthy.initFailure()).isEmpty();
                TargetHarness.sendAll(healthy, kind, 0, 10);
                h.awaitDrained(healthy, DRAIN);
                assertThat(healthy.health().status()).isEqualTo(TargetHealth.Status.ONLINE);
                assertThat(Streams.state(h.admin(), "HEALTHY").getMsgCount()).isEqualTo(10);

                // The operator replaces the stream; the next init retry (every 60 s) brings it up.
                Streams.delete(h.admin(), TargetHarness.STREAM);
                h.createDefaultStream();
                sealed.retryInit();
                assertThat(sealed.initFailure()).isEmpty();
                assertThat(sealed.health().status()).isEqualTo(TargetHealth.Status.ONLINE);
                TargetSends.send(sealed, TargetHarness.event(kind, 2)).join();
                h.awaitDrained(sealed, DRAIN);
                List<StoredMessage> stored = h.readStream();
                assertThat(stored).hasSize(1);
                assertThat(stored.get(0).text()).contains("obj-2");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void sealedStreamAtStartupLeavesEntriesAlreadyOnDiskToDeliverOnceReplaced(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            TargetConfig config = TargetHarness.config(h.jetStreamEnv(kind));
            Set<String> queued;
            // A first run queues events while the stream does not exist yet.
            try (NatsTarget first = NatsTarget.open(config, h.runtime())) {
                first.start();
                TargetHarness.sendAll(first, kind, 0, 5);
                queued = msgIds(first.queue().orElseThrow().live(0, 100));
            }
            h.createDefaultStream();
            Streams.seal(h.admin(), TargetHarness.STREAM);

            NatsTarget t = h.start(config);
            assertThat(t.initFailure()).contains("stream EVENTS is sealed");
            assertThat(t.queueLength()).as("entries already on disk stay there").isEqualTo(5);

            Streams.delete(h.admin(), TargetHarness.STREAM);
            h.createDefaultStream();
            t.retryInit();
            h.awaitDrained(t, DRAIN);
            List<StoredMessage> stored = h.readStream();
            assertThat(stored).hasSize(5);
            assertThat(stored.stream().map(m -> m.msgId().orElseThrow()).collect(Collectors.toSet())).isEqualTo(queued);
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void targetWhoseInitFailedClosesPromptly(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            Streams.seal(h.admin(), TargetHarness.STREAM);
            NatsTarget t = NatsTarget.open(TargetHarness.config(h.jetStreamEnv(kind)), h.runtime());
            t.start();
            assertThat(t.initFailure()).isPresent();
            // Its dispatcher never ran, so nothing may wait for it to stop.
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> t.close());
            // The queue lock is released: the target can be opened again.
            NatsTarget.open(TargetHarness.config(h.jetStreamEnv(kind)), h.runtime()).close();
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void sealedTargetTakesNoEventsWhileItsInitRetryRuns(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            Streams.seal(h.admin(), TargetHarness.STREAM);
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(kind)));
            assertThat(t.initFailure()).isPresent();

            // A frozen server holds the retry in its stream lookup for as long as we like.
            h.server.pause();
            Thread retry = new Thread(t::retryInit, "init-retry");
            try {
                retry.start();
                Awaitility.await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> TargetSends.send(t, TargetHarness.event(kind, 1)).isCompletedExceptionally());
            } finally {
                h.server.resume();
            }
            retry.join(TargetHarness.AWAIT.toMillis());
            assertThat(retry.isAlive()).isFalse();
            assertThat(t.initFailure()).as("still sealed").contains("stream EVENTS is sealed");
            assertThat(t.queueLength()).as("nothing queued while the retry ran").isZero();
        }
    }

    /** The harness's settings moved onto instance {@code id} (variables suffixed {@code _<ID>}). */
    static Map<String, String> instance(Map<String, String> env, TargetKind kind, String id) {
        Map<String, String> out = new HashMap<>();
        env.forEach((k, v) -> out.put(k.startsWith(kind.envPrefix()) ? k + "_" + id.toUpperCase() : k, v));
        return out;
    }

    private static Set<String> msgIds(List<QueuedEntry> entries) {
        return entries.stream().map(QueuedEntry::msgId).collect(Collectors.toSet());
    }
}

package dev.jetsink.internal.metrics;

import dev.jetsink.internal.targets.TargetSends;
import dev.jetsink.QueueFullException;
import dev.jetsink.internal.config.ConfigLoader;
import dev.jetsink.internal.config.LoadedConfig;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.delivery.StreamConcurrency;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.targets.LifecycleEvents;
import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.internal.targets.TargetRuntime;
import dev.jetsink.internal.time.ManualSleeper;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.LifecycleListener;
import dev.jetsink.lifecycle.Outcome;
import dev.jetsink.testkit.Bytes;
import dev.jetsink.testkit.FakeClock;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.search.RequiredSearch;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.PublishOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every series (DESIGN.md "Metrics") after a scripted scenario against a real nats-server: a
 * corrupt queue record, an ingest rejection at {@code queue_limit}, a retry cycle exhausted while
 * the stream is missing, a duplicate ack, normal deliveries and one terminal failure (payload over
 * the stream's {@code max_msg_size}). Notify and audit run the same script.
 */
class TargetMetricsTest {

    private static final String STREAM = "EVENTS";
    private static final String SUBJECT = "rustfs.events";
    private static final Duration AWAIT = Duration.ofSeconds(30);
    private static final int MAX_MSG_SIZE = 1024;

    @TempDir
    Path queueRoot;

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void everySeriesCountsWhatTheTargetDid(TargetKind kind) throws Exception {
        FakeClock clock = new FakeClock(Instant.parse("2026-12-02T10:00:00Z"));
        ManualSleeper sleeper = new ManualSleeper(clock);
        LifecycleEvents events = new LifecycleEvents();
        MeterRegistry registry = new SimpleMeterRegistry();
        TargetMetrics metrics = new TargetMetrics(registry);
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        TargetRuntime runtime = new TargetRuntime(clock, sleeper, LifecycleListener.fanOut(metrics, events),
            new StreamConcurrency(20), 1.0, scheduler);
        try (NatsServer server = NatsServer.builder().build().start();
             Connection admin = Nats.connect(server.url())) {
            TargetConfig config = config(kind, server.url());

            // A record damaged on disk before the target opens: recovery skips and counts it.
            try (NatsTarget before = NatsTarget.open(config, runtime)) {
                TargetSends.send(before, event(kind, "damaged-record", 40)).join();
                TargetSends.send(before, event(kind, "survivor", 40)).join();
            }
            damage(config, "damaged-record");

            NatsTarget t = NatsTarget.open(config, runtime);
            try {
                metrics.register(t);
                Meters m = new Meters(registry, kind, config.id() + ":nats");
                assertThat(t.queueLength()).isEqualTo(1);
                assertThat(m.ownGauge("jetsink_failed_oldest_age_seconds")).as("no failed record yet").isZero();
                assertThat(m.ownGauge("jetsink_failed_retention_seconds")).isEqualTo(72 * 3600);
                assertThat(m.ownGauge("jetsink_failed_max_records")).as("the default bound")
                    .isEqualTo(config.failedMaxRecords());

                // queue_limit is 4: three more fit, the next is rejected at ingest.
                for (int i = 0; i < 3; i++) {
                    TargetSends.send(t, event(kind, "accepted-" + i, 40)).join();
                }
                assertThatThrownBy(() -> TargetSends.send(t, event(kind, "rejected", 40)).join())
                    .isInstanceOf(CompletionException.class).hasCauseInstanceOf(QueueFullException.class);
                assertThat(m.gauge("target_queue_length")).isEqualTo(4);
                assertThat(m.gauge("total_messages")).isEqualTo(3);
                assertThat(m.gauge("failed_messages")).isEqualTo(1);

                // Stream missing: the probe spends one cycle of five attempts, then the next entry probes.
                t.start();
                spendOneCycle(sleeper, events);
                assertThat(m.counter("jetsink_retry_exhaustions")).isEqualTo(1);
                assertThat(m.gauge("failed_messages")).as("retries are not failures").isEqualTo(1);

                // The stream appears, already holding one entry's msg id: that entry acks as a duplicate.
                Streams.create(admin, StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofSeconds(274))
                    .maxMsgSize(MAX_MSG_SIZE).build());
                String storedId = t.queue().orElseThrow().live(0, 1).get(0).msgId();
                admin.jetStream().publish(SUBJECT, "{}".getBytes(StandardCharsets.UTF_8),
                    PublishOptions.builder().messageId(storedId).build());
                sleeper.advance(Duration.ofSeconds(40));
                events.awaitCount(LifecycleEvent.EntryResolved.class, e -> true, 4, AWAIT);
                Awaitility.await().atMost(AWAIT).until(() -> t.queueLength() == 0);

                // One terminal failure: a payload over the stream's max_msg_size.
                TargetSends.send(t, event(kind, "oversize", MAX_MSG_SIZE * 2)).join();
                events.await(LifecycleEvent.MovedToFailedStore.class, e -> true, AWAIT);

                long transientAttempts = events.all(LifecycleEvent.AttemptFailed.class).stream()
                    .filter(e -> e.outcome().isTransient()).count();
                assertThat(transientAttempts).as("five attempts of the cycle plus the next probe's first").isEqualTo(6);
                assertThat(m.gauge("target_queue_length")).isZero();
                assertThat(m.gauge("total_messages")).isEqualTo(4);
                assertThat(m.gauge("failed_messages")).as("one terminal move plus one ingest rejection").isEqualTo(2);
                assertThat(m.gauge("failed_store_length")).isEqualTo(1);
                assertThat(m.timer().count()).as("enqueue-to-ack samples, duplicate included").isEqualTo(4);
                assertThat(m.attempts("success")).isEqualTo(3);
                assertThat(m.attempts("duplicate")).isEqualTo(1);
                assertThat(m.attempts("permanent")).isEqualTo(1);
                assertThat(m.attempts("transient")).isEqualTo(transientAttempts);
                assertThat(m.counter("jetsink_duplicate_acks")).isEqualTo(1);
                assertThat(m.counter("jetsink_retry_exhaustions")).isEqualTo(1);
                assertThat(m.ownGauge("jetsink_stream_verdict")).isEqualTo(1);
                assertThat(m.ownGauge("jetsink_queue_bytes"))
                    .isEqualTo(t.queue().orElseThrow().bytes()).isPositive();
                assertThat(m.counter("jetsink_queue_corrupt_records")).isEqualTo(1);
                assertThat(events.all(LifecycleEvent.MovedToFailedStore.class).get(0).outcome().cause())
                    .isEqualTo(Outcome.Cause.MESSAGE_TOO_LARGE);
                double age = m.ownGauge("jetsink_failed_oldest_age_seconds");
                clock.advance(Duration.ofHours(50));
                assertThat(m.ownGauge("jetsink_failed_oldest_age_seconds")).as("the record ages on the target's clock")
                    .isEqualTo(age + 50 * 3600);
                assertEveryMeterIsLabelled(registry, config.id() + ":nats");
            } finally {
                t.close();
            }
        } finally {
            scheduler.shutdownNow();
        }
    }

    /**
     * Releases backoff sleeps until the first cycle is exhausted. The dispatcher records the
     * exhaustion before the next probe's first attempt and that attempt before its backoff sleep,
     * so once a new sleep is pending and the exhaustion is recorded, exactly one more attempt has
     * failed.
     */
    private static void spendOneCycle(ManualSleeper sleeper, LifecycleEvents events) {
        while (true) {
            Awaitility.await().atMost(AWAIT).pollInterval(Duration.ofMillis(10))
                .until(() -> !sleeper.pendingDurations().isEmpty());
            if (!events.all(LifecycleEvent.CycleExhausted.class).isEmpty()) {
                return;
            }
            sleeper.advance(Duration.ofSeconds(40));
        }
    }

    private static void assertEveryMeterIsLabelled(MeterRegistry registry, String targetId) {
        List<Meter> all = registry.getMeters();
        assertThat(all).isNotEmpty().allSatisfy(meter -> {
            assertThat(meter.getId().getTag("target_id")).isEqualTo(targetId);
            assertThat(meter.getId().getTag("target_type")).isEqualTo("nats");
        });
    }

    /** Reads the meters of one target by their names. */
    private record Meters(MeterRegistry registry, TargetKind kind, String targetId) {

        private RequiredSearch find(String name) {
            return registry.get(name).tag("target_id", targetId).tag("target_type", "nats");
        }

        /** A {@code rustfs_*} gauge by its name after the kind's prefix. */
        double gauge(String suffix) {
            return find(kind.metricPrefix() + suffix).gauge().value();
        }

        double ownGauge(String name) {
            return find(name).tag("kind", kind.label()).gauge().value();
        }

        double counter(String name) {
            Meter meter = find(name).tag("kind", kind.label()).meter();
            if (meter instanceof FunctionCounter fc) {
                return fc.count();
            }
            return find(name).tag("kind", kind.label()).counter().count();
        }

        double attempts(String outcome) {
            return find("jetsink_publish_attempts").tag("kind", kind.label()).tag("outcome", outcome).counter().count();
        }

        Timer timer() {
            return find("jetsink_publish_seconds").tag("kind", kind.label()).timer();
        }
    }

    private TargetConfig config(TargetKind kind, String url) {
        Map<String, String> env = new HashMap<>();
        String suffix = "_PRIMARY";
        String p = kind.envPrefix();
        env.put(p + "ENABLE" + suffix, "on");
        env.put(p + "ADDRESS" + suffix, url);
        env.put(p + "SUBJECT" + suffix, SUBJECT);
        env.put(p + "JETSTREAM_ENABLE" + suffix, "on");
        env.put(p + "JETSTREAM_STREAM_NAME" + suffix, STREAM);
        env.put(p + "JETSTREAM_ACK_TIMEOUT_SECS" + suffix, "10");
        env.put(p + "QUEUE_DIR" + suffix, queueRoot.toString());
        env.put(p + "QUEUE_LIMIT" + suffix, "4");
        LoadedConfig loaded = ConfigLoader.load(env, Optional.empty());
        assertThat(loaded.valid()).as("test config valid: %s", loaded.errors()).isTrue();
        TargetConfig c = loaded.config().activeTargets().get(0);
        assertThat(c.id()).isEqualTo("primary");
        return c;
    }

    private static OutboundEvent event(TargetKind kind, String name, int size) {
        String head = "{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"photos/" + name + "\",\"pad\":\"";
        String json = head + "x".repeat(Math.max(0, size - head.length() - 2)) + "\"}";
        return new OutboundEvent(new EventMetadata(kind, "photos", name, "s3:ObjectCreated:Put", ""),
            json.getBytes(StandardCharsets.UTF_8));
    }

    /** Flips one byte inside the payload of the record whose key contains {@code marker}. */
    private static void damage(TargetConfig config, String marker) throws IOException {
        byte[] needle = marker.getBytes(StandardCharsets.UTF_8);
        Path dir = config.queuePath().orElseThrow();
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> regular = files.filter(Files::isRegularFile).toList();
            for (Path f : regular) {
                byte[] bytes = Files.readAllBytes(f);
                int at = Bytes.indexOf(bytes, needle);
                if (at >= 0 && Bytes.indexOf(bytes, "survivor".getBytes(StandardCharsets.UTF_8)) > at) {
                    bytes[at] ^= 0x24;
                    try {
                        Files.write(f, bytes);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    return;
                }
            }
        }
        throw new AssertionError("no queue file holds " + marker + " before the survivor under " + dir);
    }
}

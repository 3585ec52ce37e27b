package dev.jetsink.internal.targets;

import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.config.TargetValidator;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.metrics.TargetMetrics;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Subscription;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Targets added and removed while running (the admin API, DESIGN.md "Admin API"): an added target
 * takes sends, a removed one no longer does and keeps its queued entries on disk, and its meters
 * leave the registry.
 */
class TargetsAtRuntimeTest {

    private static final String SUBJECT = "runtime.events";

    @TempDir
    Path queueRoot;

    private TargetConfig config(NatsServer nats, String id) {
        return TargetValidator.validateKeyValues(TargetKind.NOTIFY, id, Map.of(
            "enable", "on", "address", nats.url(), "subject", SUBJECT, "queue_dir", queueRoot.toString()))
            .target().orElseThrow();
    }

    private static OutboundEvent event(String text) {
        return new OutboundEvent(new EventMetadata(TargetKind.NOTIFY, "b", "k", "s3:ObjectCreated:Put", "application/json"),
            text.getBytes(StandardCharsets.UTF_8));
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    @Test
    void addedTargetTakesSendsAndRemovedOneNoLongerDoes() throws Exception {
        try (NatsServer nats = NatsServer.builder().build().start();
             Connection sub = Nats.connect(nats.url());
             Targets targets = Targets.start(TargetKind.NOTIFY, List.of(), TargetRuntime.system())) {
            Subscription s = sub.subscribe(SUBJECT);
            sub.flush(Duration.ofSeconds(5));
            NatsTarget added = targets.add(config(nats, "primary"));
            assertThat(targets.target("primary")).containsSame(added);
            TargetSends.sendAll(targets, event("{\"n\":1}")).get();
            Message m = s.nextMessage(Duration.ofSeconds(10));
            assertThat(m).isNotNull();
            assertThat(new String(m.getData(), StandardCharsets.UTF_8)).isEqualTo("{\"n\":1}");

            assertThatThrownBy(() -> targets.add(config(nats, "primary"))).isInstanceOf(IllegalStateException.class);
            assertThat(targets.remove("primary", Duration.ofSeconds(1))).containsSame(added);
            assertThat(targets.targets()).isEmpty();
            assertThat(targets.remove("primary", Duration.ofSeconds(1))).isEmpty();
        }
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    @Test
    void entriesQueuedByARemovedTargetAreDeliveredByItsReplacement() throws Exception {
        try (NatsServer nats = NatsServer.builder().build().start();
             Connection admin = Nats.connect(nats.url());
             Targets targets = Targets.start(TargetKind.NOTIFY, List.of(), TargetRuntime.system())) {
            Streams.create(admin, StreamSpec.of("RUNTIME", SUBJECT).duplicateWindow(Duration.ofSeconds(274)).build());
            TargetConfig jetstream = TargetValidator.validateKeyValues(TargetKind.NOTIFY, "primary", Map.of(
                "enable", "on", "address", nats.url(), "subject", SUBJECT, "queue_dir", queueRoot.toString(),
                "jetstream_enable", "on", "jetstream_stream_name", "RUNTIME", "jetstream_ack_timeout_secs", "10"))
                .target().orElseThrow();
            nats.stop();
            targets.add(jetstream);
            TargetSends.sendAll(targets, event("{\"n\":2}")).get();
            targets.remove("primary", Duration.ofMillis(100));
            nats.restart();
            targets.add(jetstream);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(Streams.readAll(admin, "RUNTIME")).singleElement()
                    .satisfies(m -> assertThat(m.text()).isEqualTo("{\"n\":2}")));
        }
    }

    @Test
    void unregisteredTargetLeavesNoMeterBehind() throws Exception {
        try (NatsServer nats = NatsServer.builder().build().start();
             Targets targets = Targets.start(TargetKind.NOTIFY, List.of(), TargetRuntime.system())) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            TargetMetrics metrics = new TargetMetrics(registry);
            NatsTarget t = targets.add(config(nats, "primary"));
            metrics.register(t);
            assertThat(registry.find("rustfs_notification_total_messages").tag("target_id", "primary:nats").gauge()).isNotNull();
            metrics.unregister(t);
            assertThat(registry.getMeters()).isEmpty();
        }
    }
}

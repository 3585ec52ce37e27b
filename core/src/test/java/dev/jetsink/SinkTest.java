package dev.jetsink;

import dev.jetsink.event.S3EventRecord;
import dev.jetsink.internal.targets.LifecycleEvents;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.StreamVerdict;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The library front door against a real nats-server: a receipt at the fsync, the
 * stream's ack in {@code delivered()} (after a broker kill only once it is back), a terminal
 * rejection with its failed-store record, close with entries queued, drain, and the refusal of
 * a configuration that would deliver nowhere.
 */
class SinkTest extends ServerTestBase {
    private static final String STREAM = "SINK";
    private static final String SUBJECT = "app.events";

    private SinkBuilder<S3EventRecord> sink() {
        return Jetsink.notifySink().servers(server.url()).subject(SUBJECT).jetStream(STREAM).queueDir(queue);
    }

    private static S3EventRecord event(int i) {
        return S3EventRecord.builder("s3:ObjectCreated:Put", "photos", "obj-" + i + ".jpg").size(i).build();
    }

    private void createStream(StreamSpec.Builder spec) {
        Streams.create(admin, spec.duplicateWindow(Duration.ofMinutes(5)).build());
    }

    @Test
    void aReceiptComesAtTheFsyncAndDeliveredCarriesTheStreamsAck() throws Exception {
        createStream(StreamSpec.of(STREAM, SUBJECT));
        try (Sink<S3EventRecord> sink = sink().build()) {
            List<Receipt> receipts = new ArrayList<>();
            S3EventRecord first = event(0);
            receipts.add(sink.send(first).get(30, TimeUnit.SECONDS));
            for (int i = 1; i < 20; i++) {
                receipts.add(sink.send(event(i)).get(30, TimeUnit.SECONDS));
            }
            Receipt again = sink.send(first).get(30, TimeUnit.SECONDS);
            List<Delivery> deliveries = new ArrayList<>();
            for (Receipt r : receipts) {
                deliveries.add(r.delivered().get(30, TimeUnit.SECONDS));
            }
            Delivery duplicate = again.delivered().get(30, TimeUnit.SECONDS);
            assertThat(deliveries).allSatisfy(d -> {
                assertThat(d.stream()).isEqualTo(STREAM);
                assertThat(d.duplicate()).isFalse();
                assertThat(d.attempts()).isEqualTo(1);
            });
            assertThat(deliveries.stream().map(Delivery::streamSeq).collect(Collectors.toSet()))
                .as("each its own stream sequence").hasSize(20);
            assertThat(again.msgId()).as("same content, same msg id").isEqualTo(receipts.get(0).msgId());
            assertThat(again.queueSeq()).as("two sends, two receipts").isNotEqualTo(receipts.get(0).queueSeq());
            assertThat(duplicate.duplicate()).isTrue();
            assertThat(duplicate.streamSeq()).isEqualTo(deliveries.get(0).streamSeq());

            assertThat(sink.drain(AWAIT)).isTrue();
            assertThat(sink.queueLength()).isZero();
            List<StoredMessage> stored = Streams.readAll(admin, STREAM);
            assertThat(stored).hasSize(20);
            assertThat(stored.stream().map(m -> m.msgId().orElseThrow()).collect(Collectors.toSet()))
                .isEqualTo(receipts.stream().map(Receipt::msgId).collect(Collectors.toSet()));
            SinkStatus status = sink.status();
            assertThat(status.health()).isEqualTo(SinkStatus.Health.ONLINE);
            assertThat(status.verdict()).isEqualTo(StreamVerdict.PASS);
            assertThat(status.queueLength()).isZero();
            assertThat(status.connectedServer()).isPresent();
        }
    }

    @Test
    void afterABrokerKillDeliveredCompletesOnlyOnceTheBrokerIsBack() throws Exception {
        createStream(StreamSpec.of(STREAM, SUBJECT));
        LifecycleEvents events = new LifecycleEvents();
        try (Sink<S3EventRecord> sink = sink().listener(events).build()) {
            sink.send(event(0)).join().delivered().get(30, TimeUnit.SECONDS);
            server.kill();
            List<Receipt> receipts = new ArrayList<>();
            for (int i = 1; i <= 5; i++) {
                receipts.add(sink.send(event(i)).get(30, TimeUnit.SECONDS));
            }
            events.await(LifecycleEvent.AttemptFailed.class, e -> true, AWAIT);
            assertThat(receipts).as("durable, not delivered while the broker is down")
                .allSatisfy(r -> assertThat(r.delivered()).isNotDone());
            assertThat(sink.status().health()).isEqualTo(SinkStatus.Health.OFFLINE);

            server.restart();
            for (Receipt r : receipts) {
                Delivery d = r.delivered().get(60, TimeUnit.SECONDS);
                assertThat(d.stream()).isEqualTo(STREAM);
                assertThat(d.attempts()).isGreaterThanOrEqualTo(1);
            }
            assertThat(sink.drain(AWAIT)).isTrue();
            assertThat(Streams.readAll(admin, STREAM)).hasSize(6);
        }
    }

    @Test
    void aTerminalRejectionFailsDeliveredWithTheFailedStoreRecord() throws Exception {
        createStream(StreamSpec.of(STREAM, SUBJECT).maxMsgSize(1024));
        try (Sink<S3EventRecord> sink = sink().build()) {
            S3EventRecord big = S3EventRecord.builder("s3:ObjectCreated:Put", "photos", "big.jpg")
                .userMetadata("x-amz-meta-note", "n".repeat(4000)).build();
            Receipt rejected = sink.send(big).get(30, TimeUnit.SECONDS);
            Receipt fine = sink.send(event(1)).get(30, TimeUnit.SECONDS);

            assertThat(fine.delivered().get(30, TimeUnit.SECONDS).stream()).isEqualTo(STREAM);
            assertThatThrownBy(() -> rejected.delivered().join())
                .isInstanceOf(CompletionException.class)
                .cause().isInstanceOfSatisfying(NotDeliveredException.class, e -> {
                    assertThat(e.reason()).isEqualTo(NotDeliveredException.Reason.REJECTED);
                    assertThat(e.msgId()).isEqualTo(rejected.msgId());
                    assertThat(e.failedRecord()).hasValueSatisfying(p -> assertThat(p).exists().startsWith(queue));
                    assertThat(e.getMessage()).contains("failed-events store");
                });
            assertThat(sink.drain(AWAIT)).isTrue();
        }
    }

    @Test
    void closingWithEntriesQueuedFailsTheirReceiptsAsStillQueuedAndTheNextSinkDeliversThem() throws Exception {
        createStream(StreamSpec.of(STREAM, SUBJECT));
        server.kill();
        List<Receipt> receipts = new ArrayList<>();
        Sink<S3EventRecord> first = sink().build();
        for (int i = 0; i < 3; i++) {
            receipts.add(first.send(event(i)).get(30, TimeUnit.SECONDS));
        }
        assertThat(first.drain(Duration.ofMillis(300))).as("nothing can drain with the broker down").isFalse();
        first.close(Duration.ofSeconds(1));
        for (Receipt r : receipts) {
            assertThatThrownBy(() -> r.delivered().join()).cause()
                .isInstanceOfSatisfying(NotDeliveredException.class, e -> {
                    assertThat(e.reason()).isEqualTo(NotDeliveredException.Reason.STILL_QUEUED);
                    assertThat(e.msgId()).isEqualTo(r.msgId());
                });
        }
        assertThat(first.send(event(9))).as("a closed sink refuses in the future").failsWithin(AWAIT)
            .withThrowableOfType(ExecutionException.class).havingCause()
            .isInstanceOfSatisfying(TargetUnavailableException.class,
                e -> assertThat(e.reason()).isEqualTo(TargetUnavailableException.Reason.CLOSED))
            .withMessageContaining("closed");

        try (Sink<S3EventRecord> second = sink().build()) {
            // counted while the broker is still down, so no delivery can race the count
            assertThat(second.queueLength()).isEqualTo(3);
            server.restart();
            assertThat(second.drain(Duration.ofSeconds(60))).isTrue();
            assertThat(Streams.readAll(admin, STREAM).stream().map(m -> m.msgId().orElseThrow()).collect(Collectors.toSet()))
                .isEqualTo(receipts.stream().map(Receipt::msgId).collect(Collectors.toSet()));
        }
    }

    @Test
    void aMissingStreamReachesTheListener() throws Exception {
        LifecycleEvents events = new LifecycleEvents();
        try (Sink<S3EventRecord> sink = sink().listener(events).build()) {
            LifecycleEvent.StreamValidationFailed failed = events.await(LifecycleEvent.StreamValidationFailed.class,
                e -> true, AWAIT);
            assertThat(failed.stream()).isEqualTo(STREAM);
            assertThat(failed.target()).isEqualTo(sink.target());
            assertThat(failed.message()).isNotBlank();
            Receipt r = sink.send(event(1)).get(30, TimeUnit.SECONDS);
            events.await(LifecycleEvent.AttemptFailed.class, e -> e.msgId().equals(r.msgId()), AWAIT);
            assertThat(r.delivered()).isNotDone();
            assertThat(sink.status().lastError()).hasValueSatisfying(e -> assertThat(e).contains("stream"));
        }
    }

    @Test
    void aMeterRegistryGetsTheDaemonsMetricsUntilClose() throws Exception {
        createStream(StreamSpec.of(STREAM, SUBJECT));
        io.micrometer.core.instrument.simple.SimpleMeterRegistry registry =
            new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        try (Sink<S3EventRecord> sink = sink().meterRegistry(registry).build()) {
            for (int i = 0; i < 3; i++) {
                sink.send(event(i)).join().delivered().get(30, TimeUnit.SECONDS);
            }
            assertThat(registry.get("rustfs_notification_total_messages").gauge().value()).isEqualTo(3.0);
            assertThat(registry.get("rustfs_notification_target_queue_length").gauge().value()).isZero();
        }
        assertThat(registry.find("rustfs_notification_total_messages").meters()).as("unregistered at close").isEmpty();
    }

    @Test
    void closeStopsEveryThreadTheSinkStarted() throws Exception {
        createStream(StreamSpec.of(STREAM, SUBJECT));
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        Sink<S3EventRecord> sink = sink().build();
        sink.send(event(1)).join().delivered().get(30, TimeUnit.SECONDS);
        // the JDK's one shared delayer behind CompletableFuture.orTimeout is the JVM's, not the sink's
        List<Thread> started = Thread.getAllStackTraces().keySet().stream()
            .filter(t -> !before.contains(t) && t.isAlive() && !t.getName().equals("CompletableFutureDelayScheduler"))
            .toList();
        assertThat(started).isNotEmpty();
        sink.close();
        for (Thread t : started) {
            t.join(10_000);
        }
        assertThat(started).as("threads the sink started, after close").noneMatch(Thread::isAlive);
    }

    @Test
    void aConfigurationThatWouldDeliverNowhereIsRefusedWithEveryProblemAtOnce() {
        assertThatThrownBy(() -> Jetsink.notifySink().build())
            .isInstanceOf(InvalidConfigException.class)
            .satisfies(e -> assertThat(((InvalidConfigException) e).problems()).hasSizeGreaterThanOrEqualTo(2))
            .hasMessageContaining("servers(...) is required")
            .hasMessageContaining("subject(...) is required");
        assertThatThrownBy(() -> Jetsink.notifySink().servers(server.url()).subject(SUBJECT).build())
            .isInstanceOf(InvalidConfigException.class)
            .hasMessageContaining("queue directory");
        assertThatThrownBy(() -> sink().publishWindow(0).build())
            .isInstanceOf(InvalidConfigException.class)
            .hasMessageContaining("publishWindow(...) must be between 1 and 4096");
        assertThatThrownBy(() -> Jetsink.notifyFromEnvironment(java.util.Map.of("RUSTFS_NOTIFY_ENABLE", "off"))
                .servers(server.url()).subject(SUBJECT).queueDir(queue).build())
            .isInstanceOf(InvalidConfigException.class)
            .hasMessageContaining("deliver nowhere");
        assertThat(queue).as("nothing opened by a refused build").isEmptyDirectory();
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    @Test
    void natsOptionsReachWhatTheKeyTableDoesNot() throws Exception {
        try (NatsServer guarded = NatsServer.builder().args("--auth", "from-the-embedder").build().start();
             Connection guardedAdmin = Nats.connect(new Options.Builder().server(guarded.url())
                 .token("from-the-embedder".toCharArray()).build())) {
            Streams.create(guardedAdmin, StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofMinutes(5)).build());
            try (Sink<S3EventRecord> sink = Jetsink.notifySink().servers(guarded.url()).subject(SUBJECT)
                     .jetStream(STREAM).queueDir(queue)
                     .natsOptions(b -> b.token("from-the-embedder".toCharArray())).build()) {
                assertThat(sink.send(event(1)).join().delivered().get(30, TimeUnit.SECONDS).stream()).isEqualTo(STREAM);
            }
            assertThat(Streams.readAll(guardedAdmin, STREAM)).hasSize(1);
        }
    }
}

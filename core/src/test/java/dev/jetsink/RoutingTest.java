package dev.jetsink;

import dev.jetsink.event.AuditEntry;
import dev.jetsink.event.S3EventRecord;
import dev.jetsink.internal.config.SubjectTemplate;
import dev.jetsink.internal.targets.LifecycleEvents;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.PullSubscribeOptions;
import io.nats.client.Subscription;
import io.nats.client.api.ConsumerConfiguration;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * NATS-native routing against a real nats-server: subjects from a template, a
 * consumer's filter subject doing the selection, the reversible token encoding, stream validation
 * of the template's whole subject space, the routing headers, and trace context.
 */
class RoutingTest extends ServerTestBase {
    private static final String STREAM = "ROUTED";

    private void createStream(String... subjects) {
        Streams.create(admin, StreamSpec.of(STREAM, subjects).duplicateWindow(Duration.ofMinutes(5)).build());
    }

    private SinkBuilder<S3EventRecord> notifySink(String subject) {
        return Jetsink.notifySink().servers(server.url()).subject(subject).jetStream(STREAM).queueDir(queue);
    }

    @Test
    void eventsLandOnTheirBucketAndEventSubjectsAndAFilterSubjectSelectsOneBucket() throws Exception {
        createStream("rustfs.events.>");
        List<String> buckets = List.of("photos", "logs", "backups");
        List<String> names = List.of("s3:ObjectCreated:Put", "s3:ObjectRemoved:Delete");
        try (Sink<S3EventRecord> sink = notifySink("rustfs.events.{bucket}.{event}").build()) {
            List<Receipt> receipts = new ArrayList<>();
            for (String bucket : buckets) {
                for (String name : names) {
                    for (int i = 0; i < 3; i++) {
                        receipts.add(sink.send(S3EventRecord.builder(name, bucket, "k" + i).build()).join());
                    }
                }
            }
            for (Receipt r : receipts) {
                r.delivered().get(30, TimeUnit.SECONDS);
            }
        }
        List<StoredMessage> stored = Streams.readAll(admin, STREAM);
        assertThat(stored).hasSize(18);
        Map<String, Long> perSubject = stored.stream()
            .collect(Collectors.groupingBy(StoredMessage::subject, Collectors.counting()));
        assertThat(perSubject).containsOnly(
            Map.entry("rustfs.events.photos.ObjectCreated.Put", 3L),
            Map.entry("rustfs.events.photos.ObjectRemoved.Delete", 3L),
            Map.entry("rustfs.events.logs.ObjectCreated.Put", 3L),
            Map.entry("rustfs.events.logs.ObjectRemoved.Delete", 3L),
            Map.entry("rustfs.events.backups.ObjectCreated.Put", 3L),
            Map.entry("rustfs.events.backups.ObjectRemoved.Delete", 3L));

        // The server does the selection: a consumer filtered on one bucket gets only its events.
        JetStreamSubscription sub = admin.jetStream().subscribe("rustfs.events.photos.>", PullSubscribeOptions.builder()
            .configuration(ConsumerConfiguration.builder().filterSubject("rustfs.events.photos.>").build()).build());
        List<Message> fetched = new ArrayList<>();
        while (fetched.size() < 6) {
            List<Message> batch = sub.fetch(10, Duration.ofSeconds(5));
            if (batch.isEmpty()) {
                break;
            }
            fetched.addAll(batch);
        }
        assertThat(fetched).hasSize(6);
        assertThat(fetched).allSatisfy(m -> {
            assertThat(m.getSubject()).startsWith("rustfs.events.photos.");
            assertThat(m.getHeaders().getFirst("Jetsink-Bucket")).isEqualTo("photos");
        });
        assertThat(sub.fetch(10, Duration.ofMillis(500))).as("nothing of another bucket").isEmpty();
    }

    @Test
    void aDottedBucketAndAKeyWithSpacesAndUnicodeRoundTripThroughTheTokens() throws Exception {
        createStream("store.>");
        String bucket = "logs.2026";
        String key = "my photos/été 2026/caf\u00e9 \u732b.jpg";
        try (Sink<S3EventRecord> sink = notifySink("store.{bucket}.{key_prefix:3}").build()) {
            sink.send(S3EventRecord.builder("s3:ObjectCreated:Put", bucket, key).build()).join()
                .delivered().get(30, TimeUnit.SECONDS);
            sink.send(S3EventRecord.builder("s3:ObjectCreated:Put", "_", "a").build()).join()
                .delivered().get(30, TimeUnit.SECONDS);
        }
        List<StoredMessage> stored = Streams.readAll(admin, STREAM);
        assertThat(stored).hasSize(2);
        String[] tokens = stored.get(0).subject().split("\\.");
        assertThat(tokens[1]).as("one token for a dotted bucket").isEqualTo("logs%2E2026");
        assertThat(tokens).hasSize(5);
        List<String> decoded = Arrays.stream(tokens).skip(1)
            .map(t -> SubjectTemplate.decode(t).orElseThrow()).toList();
        assertThat(decoded).containsExactly(bucket, "my photos", "été 2026", "caf\u00e9 \u732b.jpg");
        assertThat(stored.get(0).header("Jetsink-Key")).as("non-ASCII percent-encoded in headers")
            .contains("my photos/%C3%A9t%C3%A9 2026/caf%C3%A9 %E7%8C%AB.jpg");
        assertThat(stored.get(1).subject()).as("a bucket named _").isEqualTo("store.%5F.a");
        assertThat(SubjectTemplate.decode("%5F")).contains("_");
        assertThat(SubjectTemplate.decode("_")).contains("");
    }

    /**
     * Entries queued while SUBJECT was plain carry no subject of their own; once SUBJECT becomes a
     * template they go to the subject the template gives their stored metadata, never to the
     * template's literal text with its braces.
     */
    @Test
    void entriesQueuedBeforeTheSubjectBecameATemplateGoToTheirResolvedSubjects() throws Exception {
        createStream("rustfs.events", "rustfs.events.>");
        server.kill();
        try (Sink<S3EventRecord> plain = notifySink("rustfs.events").build()) {
            for (String bucket : List.of("photos", "logs")) {
                plain.send(S3EventRecord.builder("s3:ObjectCreated:Put", bucket, "k").build()).get(30, TimeUnit.SECONDS);
            }
            plain.close(Duration.ofSeconds(1));
        }
        server.restart();
        try (Sink<S3EventRecord> templated = notifySink("rustfs.events.{bucket}.{event}").build()) {
            templated.send(S3EventRecord.builder("s3:ObjectRemoved:Delete", "photos", "k").build()).join()
                .delivered().get(30, TimeUnit.SECONDS);
            assertThat(templated.drain(AWAIT)).isTrue();
        }
        assertThat(Streams.readAll(admin, STREAM)).extracting(StoredMessage::subject).containsExactlyInAnyOrder(
            "rustfs.events.photos.ObjectCreated.Put",
            "rustfs.events.logs.ObjectCreated.Put",
            "rustfs.events.photos.ObjectRemoved.Delete");
    }

    @Test
    void aStreamCapturingOnlyPartOfTheTemplatesSpaceFailsValidationNamingWhatItMisses() throws Exception {
        createStream("rustfs.events.photos.>");
        LifecycleEvents events = new LifecycleEvents();
        try (Sink<S3EventRecord> sink = notifySink("rustfs.events.{bucket}.{key_prefix:2}").listener(events).build()) {
            Receipt r = sink.send(S3EventRecord.builder("s3:ObjectCreated:Put", "photos", "a/b.jpg").build()).join();
            LifecycleEvent.StreamValidationFailed failed =
                events.await(LifecycleEvent.StreamValidationFailed.class, e -> true, AWAIT);
            assertThat(failed.message())
                .contains("must list rustfs.events.*.>")
                .contains("it would miss e.g. rustfs.events.example.example");
            assertThat(r.delivered()).as("nothing published while the stream fails validation").isNotDone();
            assertThat(Streams.readAll(admin, STREAM)).isEmpty();

        }
    }

    @Test
    void everyMessageCarriesBoundedRoutingHeadersAndTheCallersTraceContext() throws Exception {
        createStream("app.>");
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        String longKey = "k/" + "x".repeat(3000);
        try (Sink<S3EventRecord> sink = notifySink("app.notify").build()) {
            TraceContext trace = new TraceContext(traceparent, Optional.of("vendor=abc"));
            sink.send(S3EventRecord.builder("s3:ObjectCreated:Put", "photos", "cat.jpg").build(), trace).join()
                .delivered().get(30, TimeUnit.SECONDS);
            sink.send(S3EventRecord.builder("s3:ObjectCreated:Put", "photos", longKey).build()).join()
                .delivered().get(30, TimeUnit.SECONDS);
        }
        Path auditQueue = queue.resolve("audit");
        try (Sink<AuditEntry> audit = Jetsink.auditSink().servers(server.url()).subject("app.audit.{api}")
                .jetStream(STREAM).queueDir(auditQueue).build()) {
            audit.send(AuditEntry.builder("PutObject").bucket("photos").object("cat.jpg").event("s3:PutObject").build())
                .join().delivered().get(30, TimeUnit.SECONDS);
        }
        List<StoredMessage> stored = Streams.readAll(admin, STREAM);
        assertThat(stored).hasSize(3);
        StoredMessage first = stored.get(0);
        assertThat(first.subject()).isEqualTo("app.notify");
        assertThat(first.header("Content-Type")).contains("application/json");
        assertThat(first.header("Jetsink-Kind")).contains("notify");
        assertThat(first.header("Jetsink-Event")).contains("s3:ObjectCreated:Put");
        assertThat(first.header("Jetsink-Bucket")).contains("photos");
        assertThat(first.header("Jetsink-Key")).contains("cat.jpg");
        assertThat(first.header("traceparent")).contains(traceparent);
        assertThat(first.header("tracestate")).contains("vendor=abc");
        assertThat(first.text()).as("payload bytes unchanged").startsWith("{\"EventName\":\"s3:ObjectCreated:Put\"");

        StoredMessage second = stored.get(1);
        assertThat(second.header("Jetsink-Key").orElseThrow()).hasSize(1024).startsWith("k/xxx");
        assertThat(second.header("traceparent")).as("no trace context given, none invented").isEmpty();

        StoredMessage third = stored.get(2);
        assertThat(third.subject()).isEqualTo("app.audit.PutObject");
        assertThat(third.header("Jetsink-Kind")).contains("audit");
        assertThat(third.header("Jetsink-Api")).contains("PutObject");
        assertThat(third.header("Jetsink-Key")).isEmpty();
        assertThat(stored).allSatisfy(m -> assertThat(m.headers().keySet())
            .as("no credentials, no request headers").allSatisfy(h -> assertThat(h.toLowerCase())
                .doesNotContain("authorization").doesNotContain("cookie")));
    }

    @Test
    void theCorePathPublishesOnTheResolvedSubjectWithHeaders() throws Exception {
        Subscription sub = admin.subscribe("core.>");
        admin.flush(Duration.ofSeconds(5));
        try (Sink<S3EventRecord> sink = Jetsink.notifySink().servers(server.url()).subject("core.{bucket}")
                .queueDir(queue).build()) {
            sink.send(S3EventRecord.builder("s3:ObjectCreated:Put", "photos", "cat.jpg").build()).join()
                .delivered().get(30, TimeUnit.SECONDS);
        }
        Message m = sub.nextMessage(Duration.ofSeconds(10));
        assertThat(m).isNotNull();
        assertThat(m.getSubject()).isEqualTo("core.photos");
        assertThat(m.getHeaders().getFirst("Jetsink-Kind")).isEqualTo("notify");
        assertThat(new String(m.getData(), StandardCharsets.UTF_8)).contains("\"Key\":\"photos/cat.jpg\"");
    }
}

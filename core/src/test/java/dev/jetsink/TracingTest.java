package dev.jetsink;

import dev.jetsink.event.S3EventRecord;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Optional OpenTelemetry spans with a real SDK and a real nats-server: the enqueue
 * span continues the caller's trace, the publish span is its child, and the message carries the
 * publish span's context so the consumer's trace continues from jetsink's.
 */
class TracingTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

    @TempDir
    Path queue;

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    @Test
    void enqueueAndPublishSpansContinueTheCallersTraceIntoTheMessage() throws Exception {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();
        try (NatsServer server = NatsServer.startDefault(); Connection admin = Nats.connect(server.url())) {
            Streams.create(admin, StreamSpec.of("TRACED", "traced.>").duplicateWindow(Duration.ofMinutes(5)).build());
            try (Sink<S3EventRecord> sink = Jetsink.notifySink().servers(server.url()).subject("traced.{bucket}")
                    .jetStream("TRACED").queueDir(queue).openTelemetry(sdk).build()) {
                TraceContext trace = new TraceContext("00-" + TRACE_ID + "-00f067aa0ba902b7-01", Optional.empty());
                sink.send(S3EventRecord.builder("s3:ObjectCreated:Put", "photos", "cat.jpg").build(), trace).join()
                    .delivered().get(30, TimeUnit.SECONDS);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> exporter.getFinishedSpanItems().size() >= 2);
            List<SpanData> spans = exporter.getFinishedSpanItems();
            SpanData enqueue = spans.stream().filter(s -> s.getName().equals("jetsink enqueue")).findFirst().orElseThrow();
            SpanData publish = spans.stream().filter(s -> s.getName().equals("traced.photos publish")).findFirst()
                .orElseThrow();
            assertThat(enqueue.getTraceId()).isEqualTo(TRACE_ID);
            assertThat(enqueue.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
            assertThat(publish.getKind()).isEqualTo(SpanKind.PRODUCER);
            assertThat(publish.getTraceId()).isEqualTo(TRACE_ID);
            assertThat(publish.getParentSpanId()).as("publish follows the enqueue").isEqualTo(enqueue.getSpanId());
            assertThat(publish.getAttributes().asMap().toString()).contains("messaging.destination.name=traced.photos");

            StoredMessage stored = Streams.readAll(admin, "TRACED").get(0);
            assertThat(stored.header("traceparent"))
                .contains("00-" + TRACE_ID + "-" + publish.getSpanId() + "-01");
        } finally {
            sdk.close();
        }
    }
}

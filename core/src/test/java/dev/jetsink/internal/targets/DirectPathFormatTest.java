package dev.jetsink.internal.targets;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.event.S3EventRecord;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventAccess;
import dev.jetsink.internal.event.Envelopes;
import io.nats.client.Message;
import io.nats.client.Subscription;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A target without a queue dir publishes in the caller's call (NATS Core): in a CloudEvents
 * format the event is formatted there too, and the subscriber gets the record as the
 * payload and its attributes as {@code ce-} headers, the sender's own among them.
 */
class DirectPathFormatTest {

    @Test
    void aTargetWithoutAQueuePublishesABinaryModeCloudEvent() throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            String p = TargetKind.NOTIFY.envPrefix();
            Map<String, String> env = Map.of(p + "ENABLE", "on", p + "ADDRESS", h.server.url(), p + "SUBJECT", "s3.ce",
                p + "FORMAT", "cloudevents-binary");
            Subscription sub = h.admin().subscribe("s3.ce");
            h.admin().flush(Duration.ofSeconds(5));
            NatsTarget t = h.start(TargetHarness.config(env));
            S3EventRecord record = S3EventRecord.builder("s3:ObjectCreated:Put", "photos", "a b.jpg")
                .eventSource("minio:s3").awsRegion("eu-1").build();
            TargetSends.send(t, Envelopes.notify(record).withCloudEvent(Map.of("specversion", "1.0", "xsender", "store a"))).join();

            Message m = sub.nextMessage(Duration.ofSeconds(10));
            assertThat(m).isNotNull();
            assertThat(m.getHeaders().getFirst("ce-specversion")).isEqualTo("1.0");
            assertThat(m.getHeaders().getFirst("ce-type")).isEqualTo("com.amazonaws.s3.ObjectCreated:Put");
            assertThat(m.getHeaders().getFirst("ce-source")).isEqualTo("minio:s3.eu-1.photos");
            assertThat(m.getHeaders().getFirst("ce-subject")).isEqualTo("a+b.jpg");
            assertThat(m.getHeaders().getFirst("ce-datacontenttype")).isEqualTo("application/json");
            assertThat(m.getHeaders().getFirst("ce-xsender")).isEqualTo("store%20a");
            assertThat(m.getHeaders().getFirst("Jetsink-Key")).isEqualTo("a b.jpg");
            JsonNode payload = Json.READER.readTree(m.getData());
            assertThat(payload).isEqualTo(EventAccess.tree(record));
        }
    }
}

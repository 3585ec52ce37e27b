package dev.jetsink.internal.publish;

import dev.jetsink.PayloadFormat;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.queue.EntryAttributes;
import io.nats.client.impl.Headers;
import java.util.Optional;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The routing headers of a published message: present, ASCII, bounded. */
class MessageHeadersTest {

    @Test
    void notifyAndAuditEntriesGetTheirRoutingHeaders() {
        Headers n = MessageHeaders.of(PayloadFormat.ENVELOPE, new EventMetadata(TargetKind.NOTIFY, "photos", "a b/caf\u00e9%.jpg",
            "s3:ObjectCreated:Put", "image/jpeg"), EntryAttributes.NONE);
        assertThat(n.getFirst("Content-Type")).isEqualTo("application/json");
        assertThat(n.getFirst("Jetsink-Kind")).isEqualTo("notify");
        assertThat(n.getFirst("Jetsink-Event")).isEqualTo("s3:ObjectCreated:Put");
        assertThat(n.getFirst("Jetsink-Bucket")).isEqualTo("photos");
        assertThat(n.getFirst("Jetsink-Key")).isEqualTo("a b/caf%C3%A9%25.jpg");
        assertThat(n.get("traceparent")).isNull();

        Headers a = MessageHeaders.of(PayloadFormat.ENVELOPE, new EventMetadata(TargetKind.AUDIT, "", "ListBuckets", "s3:ListBuckets", ""),
            EntryAttributes.NONE.withTrace(Optional.of("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
                Optional.empty()));
        assertThat(a.getFirst("Jetsink-Kind")).isEqualTo("audit");
        assertThat(a.getFirst("Jetsink-Api")).isEqualTo("ListBuckets");
        assertThat(a.get("Jetsink-Bucket")).as("empty values are left out").isNull();
        assertThat(a.get("Jetsink-Key")).isNull();
        assertThat(a.getFirst("traceparent")).startsWith("00-4bf9");
    }

    @Test
    void cloudEventsAttributesAreCeHeadersEncodedAsTheNatsBindingSaysAndStructuredModeSaysSo() {
        EntryAttributes stored = EntryAttributes.NONE.withCloudEvent(dev.jetsink.internal.event.CloudEventAttributes
            .toJson(new java.util.LinkedHashMap<>(java.util.Map.of("subject", "a b/\"caf\u00e9\"%.jpg"))));
        Headers binary = MessageHeaders.of(PayloadFormat.CLOUDEVENTS_BINARY,
            new EventMetadata(TargetKind.NOTIFY, "photos", "k", "s3:ObjectCreated:Put", ""), stored);
        assertThat(binary.getFirst("ce-subject")).isEqualTo("a%20b/%22caf%C3%A9%22%25.jpg");
        assertThat(binary.getFirst("Content-Type")).isEqualTo("application/json");

        Headers structured = MessageHeaders.of(PayloadFormat.CLOUDEVENTS_STRUCTURED,
            new EventMetadata(TargetKind.NOTIFY, "photos", "k", "s3:ObjectCreated:Put", ""), EntryAttributes.NONE);
        assertThat(structured.getFirst("Content-Type")).isEqualTo("application/cloudevents+json");
        assertThat(structured.keySet()).noneMatch(k -> k.startsWith("ce-"));
        assertThat(structured.getFirst("Jetsink-Key")).as("routing headers stay in every format").isEqualTo("k");
    }

    @Test
    void valuesAreCutAt1KiBNeverInsideAnEscape() {
        assertThat(MessageHeaders.value("x".repeat(5000))).hasSize(MessageHeaders.MAX_VALUE_BYTES);
        String cut = MessageHeaders.value("\u00e9".repeat(1000));
        assertThat(cut.length()).isLessThanOrEqualTo(MessageHeaders.MAX_VALUE_BYTES);
        assertThat(cut).matches("(%C3%A9)+");
        assertThat(MessageHeaders.value("line\r\nbreak\ttab")).isEqualTo("line%0D%0Abreak%09tab");
        assertThat(MessageHeaders.value("x".repeat(MessageHeaders.MAX_VALUE_BYTES))).hasSize(MessageHeaders.MAX_VALUE_BYTES);
        assertThat(MessageHeaders.value("100% done~")).isEqualTo("100%25 done~");
    }
}

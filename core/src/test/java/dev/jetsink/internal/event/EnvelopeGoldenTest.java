package dev.jetsink.internal.event;

import dev.jetsink.event.MalformedEventException;
import dev.jetsink.internal.config.TargetKind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each fixture in {@code events/} is a body shaped like what RustFS or MinIO POSTs; its
 * {@code .expected.json} holds the envelopes jetsink must publish, one per line, byte for byte.
 */
class EnvelopeGoldenTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "notify-put-rustfs.json", "notify-put-minio.json", "notify-delete.json", "notify-multipart.json",
        "notify-encoded-keys.json", "notify-unknown-fields.json",
        "audit-redacted.json", "audit-array.json", "audit-batch.ndjson"})
    void publishedEnvelopeMatchesGoldenFileByteForByte(String fixture) throws Exception {
        byte[] expected = resource(fixture.substring(0, fixture.lastIndexOf('.')) + ".expected.json");

        byte[] actual = joined(parse(fixture));

        assertThat(new String(actual, StandardCharsets.UTF_8)).isEqualTo(new String(expected, StandardCharsets.UTF_8));
        assertThat(actual).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"notify-encoded-keys.json", "notify-unknown-fields.json", "audit-redacted.json", "audit-batch.ndjson"})
    void sameBodyAlwaysYieldsIdenticalBytes(String fixture) throws Exception {
        byte[] first = joined(parse(fixture));
        byte[] second = joined(parse(fixture));

        assertThat(second).isEqualTo(first);
    }

    @Test
    void webhookBodyWithThreeRecordsYieldsThreeEvents() throws Exception {
        List<OutboundEvent> events = parse("notify-encoded-keys.json");

        assertThat(events).extracting(e -> e.metadata().object())
                .containsExactly("my photo.jpg", "été/日本 📷.jpg", "c++ notes%.txt");
    }

    @Test
    void notifyMetadataCarriesBucketDecodedKeyEventAndContentType() throws Exception {
        EventMetadata metadata = parse("notify-put-rustfs.json").get(0).metadata();

        assertThat(metadata).isEqualTo(new EventMetadata(TargetKind.NOTIFY, "photos", "summer/beach.jpg",
                "s3:ObjectCreated:Put", "image/jpeg"));
    }

    @Test
    void deleteEventHasNoContentType() throws Exception {
        EventMetadata metadata = parse("notify-delete.json").get(0).metadata();

        assertThat(metadata.contentType()).isEmpty();
        assertThat(metadata.eventName()).isEqualTo("s3:ObjectRemoved:Delete");
    }

    @Test
    void auditMetadataCarriesApiBucketApiNameAndEvent() throws Exception {
        EventMetadata metadata = parse("audit-redacted.json").get(0).metadata();

        assertThat(metadata).isEqualTo(new EventMetadata(TargetKind.AUDIT, "photos", "PutObject", "s3:PutObject", ""));
    }

    @Test
    void auditPayloadNeverContainsCredentials() throws Exception {
        String payload = new String(joined(parse("audit-redacted.json")), StandardCharsets.UTF_8);

        assertThat(payload).doesNotContain("Signature=0123abcd", "IQoJb3JpZ2luX2VjEXAMPLE", "s3cr3t",
                "lb=abc123", "FwoGZXIvYXdzEXAMPLETOKEN", "4f1b0c7e9d");
        assertThat(payload).contains("\"Content-Type\":\"image/jpeg\"", "\"X-Amz-Credential\":\"AKIAEXAMPLE/");
    }

    private static List<OutboundEvent> parse(String fixture) throws MalformedEventException {
        TargetKind kind = fixture.startsWith("audit") ? TargetKind.AUDIT : TargetKind.NOTIFY;
        return EventParser.forKind(kind).parse(resource(fixture));
    }

    private static byte[] joined(List<OutboundEvent> events) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (OutboundEvent event : events) {
            out.writeBytes(event.payload());
            out.write('\n');
        }
        return out.toByteArray();
    }

    static byte[] resource(String name) {
        try (InputStream in = EnvelopeGoldenTest.class.getResourceAsStream("/events/" + name)) {
            assertThat(in).as("fixture %s", name).isNotNull();
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

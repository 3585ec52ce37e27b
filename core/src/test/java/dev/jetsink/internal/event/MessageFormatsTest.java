package dev.jetsink.internal.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.PayloadFormat;
import dev.jetsink.event.AuditEntry;
import dev.jetsink.event.S3EventRecord;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One event in each format; the end-to-end proof with real consumers is FormatsIT. */
class MessageFormatsTest {

    private static ObjectNode json(byte[] b) throws Exception {
        return (ObjectNode) Json.READER.readTree(b);
    }

    private static S3EventRecord ceph(String key) throws Exception {
        return S3EventRecord.of(json(("{\"eventVersion\":\"2.2\",\"eventSource\":\"ceph:s3\",\"awsRegion\":\"\","
            + "\"eventTime\":\"2026-12-03T07:27:45.950719Z\",\"eventName\":\"ObjectCreated:Put\","
            + "\"responseElements\":{\"x-amz-request-id\":\"r1\",\"x-amz-id-2\":\"z2\"},"
            + "\"s3\":{\"bucket\":{\"name\":\"bkt\"},\"object\":{\"key\":\"" + key + "\",\"size\":3}}}")
            .getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theEnvelopeIsTheDefaultAndUnchanged() throws Exception {
        OutboundEvent e = Envelopes.notify(ceph("a b+c.txt"));
        assertThat(MessageFormats.apply(PayloadFormat.ENVELOPE, e)).isSameAs(e);
    }

    @Test
    void awsIsTheRecordsDocumentWithTheKeyFormEncodedAndTheIdentityKept() throws Exception {
        OutboundEvent e = Envelopes.notify(ceph("a b+c.txt"));
        OutboundEvent aws = MessageFormats.apply(PayloadFormat.AWS, e);
        JsonNode doc = json(aws.payload());
        assertThat(doc.fieldNames()).toIterable().containsExactly("Records");
        assertThat(doc.path("Records")).hasSize(1);
        assertThat(doc.path("Records").path(0).path("s3").path("object").path("key").asText())
            .as("Ceph writes keys as stored; AWS form-encodes them").isEqualTo("a+b%2Bc.txt");
        assertThat(aws.contentDigest()).as("same msg id in every format").isEqualTo(e.contentDigest());
        assertThat(aws.metadata()).isEqualTo(e.metadata());
        assertThat(aws.cloudEvent()).isEmpty();
    }

    @Test
    void binaryModeCarriesTheRecordAndTheAdaptersAttributesWithTheSendersOverThem() throws Exception {
        OutboundEvent e = Envelopes.notify(ceph("a/x.txt"));
        OutboundEvent binary = MessageFormats.apply(PayloadFormat.CLOUDEVENTS_BINARY, e);
        assertThat(json(binary.payload())).isEqualTo(EventAccess.tree(ceph("a/x.txt")));
        assertThat(binary.cloudEvent()).containsExactly(
            Map.entry("specversion", "1.0"), Map.entry("id", "r1.z2"), Map.entry("source", "ceph:s3..bkt"),
            Map.entry("type", "com.amazonaws.s3.ObjectCreated:Put"), Map.entry("subject", "a%2Fx.txt"),
            Map.entry("time", "2026-12-03T07:27:45.950719Z"), Map.entry("datacontenttype", "application/json"));

        OutboundEvent sent = e.withCloudEvent(Map.of("specversion", "1.0", "type", "com.amazonaws.ObjectCreated:Put"));
        assertThat(MessageFormats.apply(PayloadFormat.CLOUDEVENTS_BINARY, sent).cloudEvent())
            .containsEntry("type", "com.amazonaws.ObjectCreated:Put").containsEntry("id", "r1.z2");
    }

    @Test
    void structuredModeIsOneJsonEventAndAuditEntriesHaveTheirOwnMapping() throws Exception {
        AuditEntry entry = AuditEntry.of(json(("{\"version\":\"1\",\"time\":1762164942079,\"requestID\":\"q-1\","
            + "\"requestHost\":\"rustfs:9000\",\"api\":{\"name\":\"s3:PutObject\",\"bucket\":\"photos\",\"object\":\"a.jpg\"}}")
            .getBytes(StandardCharsets.UTF_8)));
        OutboundEvent s = MessageFormats.apply(PayloadFormat.CLOUDEVENTS_STRUCTURED, Envelopes.audit(entry));
        JsonNode doc = json(s.payload());
        assertThat(doc.path("id").asText()).isEqualTo("q-1");
        assertThat(doc.path("source").asText()).isEqualTo("urn:jetsink:audit:rustfs:9000");
        assertThat(doc.path("type").asText()).isEqualTo("dev.jetsink.audit.PutObject");
        assertThat(doc.path("subject").asText()).isEqualTo("photos/a.jpg");
        assertThat(doc.path("time").asText()).isEqualTo("2025-11-03T10:15:42.079Z");
        assertThat(doc.path("data").path("requestID").asText()).isEqualTo("q-1");
        assertThat(s.cloudEvent()).as("all in the payload, nothing in headers").isEmpty();
    }

    @Test
    void aPayloadThatIsNoEnvelopeIsRefusedWithAClearError() {
        OutboundEvent raw = new OutboundEvent(new EventMetadata(dev.jetsink.internal.config.TargetKind.NOTIFY, "b", "k",
            "s3:ObjectCreated:Put", ""), "{\"x\":1}".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> MessageFormats.apply(PayloadFormat.AWS, raw))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an envelope");
    }
}

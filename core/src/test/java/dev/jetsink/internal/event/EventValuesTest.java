package dev.jetsink.internal.event;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.jetsink.MsgIdMode;
import dev.jetsink.event.AuditEntry;
import dev.jetsink.event.MalformedEventException;
import dev.jetsink.event.S3EventRecord;
import dev.jetsink.internal.config.TargetKind;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The value types and builders an embedding store uses instead of JSON. */
class EventValuesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "my+photo.jpg                    | my photo.jpg",
        "c%2B%2B+notes%25.txt            | c++ notes%.txt",
        "%C3%A9t%C3%A9%2F%E6%97%A5%E6%9C%AC | été/日本",
        "plain/key.txt                   | plain/key.txt",
        "bad%zzescape                    | bad%zzescape",
        "trailing%4                      | trailing%4",
        "trailing%                       | trailing%",
        "not-utf8-%FF%FE                 | not-utf8-%FF%FE",
    })
    void objectKeyIsDecodedOrKeptRawWhenMalformed(String encoded, String decoded) {
        assertThat(ObjectKeys.decode(encoded)).isEqualTo(decoded);
    }

    @Test
    void malformedKeyEscapeStillQueuesWithTheRawKey() throws Exception {
        String body = "{\"eventName\":\"s3:ObjectCreated:Put\",\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{\"key\":\"50%+off\"}}}";

        OutboundEvent event = EventParser.forKind(TargetKind.NOTIFY).parse(body.getBytes(StandardCharsets.UTF_8)).get(0);

        assertThat(event.metadata().object()).isEqualTo("50%+off");
        assertThat(new String(event.payload(), StandardCharsets.UTF_8)).startsWith(
                "{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"b/50%+off\",\"Records\":[{\"object_name\":\"50%+off\",");
    }

    @Test
    void builtRecordEncodesKeyAsStoresDoAndPublishesLikeAParsedOne() throws Exception {
        S3EventRecord record = S3EventRecord.builder("s3:ObjectCreated:Put", "photos", "summer/my photo.jpg")
                .eventSource("rustfs:s3")
                .awsRegion("us-east-1")
                .eventTime(Instant.parse("2026-11-30T08:15:02.481Z"))
                .size(482113)
                .eTag("9b2c")
                .contentType("image/jpeg")
                .sequencer("0055AED6DCD90281E5")
                .build();

        assertThat(record.objectKey()).isEqualTo("summer%2Fmy+photo.jpg");
        assertThat(record.decodedObjectKey()).isEqualTo("summer/my photo.jpg");
        assertThat(new String(Envelopes.notify(record).payload(), StandardCharsets.UTF_8)).isEqualTo(
                "{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"photos/summer/my photo.jpg\",\"Records\":[{"
                + "\"object_name\":\"summer%2Fmy+photo.jpg\",\"bucket_name\":\"photos\",\"event_name\":\"s3:ObjectCreated:Put\","
                + "\"data\":{\"eventVersion\":\"2.1\",\"eventSource\":\"rustfs:s3\",\"awsRegion\":\"us-east-1\","
                + "\"eventTime\":\"2026-11-30T08:15:02.481Z\",\"eventName\":\"s3:ObjectCreated:Put\",\"s3\":{"
                + "\"s3SchemaVersion\":\"1.0\",\"bucket\":{\"name\":\"photos\",\"arn\":\"arn:aws:s3:::photos\"},"
                + "\"object\":{\"key\":\"summer%2Fmy+photo.jpg\",\"size\":482113,\"eTag\":\"9b2c\",\"contentType\":\"image/jpeg\","
                + "\"sequencer\":\"0055AED6DCD90281E5\"}}}}]}");
    }

    @Test
    void recordsBuiltAlikeGetATimeAndAnIncreasingSequencerSoTheirContentMsgIdsDiffer() {
        S3EventRecord first = S3EventRecord.builder("s3:ObjectCreated:Put", "photos", "cat.jpg").size(10).build();
        S3EventRecord second = S3EventRecord.builder("s3:ObjectCreated:Put", "photos", "cat.jpg").size(10).build();

        assertThat(first.json().path("eventTime").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        String a = first.json().path("s3").path("object").path("sequencer").asText();
        String b = second.json().path("s3").path("object").path("sequencer").asText();
        assertThat(a).matches("[0-9A-F]{16}");
        assertThat(Long.parseUnsignedLong(b, 16)).as("increasing").isGreaterThan(Long.parseUnsignedLong(a, 16));
        assertThat(msgId(first)).isNotEqualTo(msgId(second));
        assertThat(msgId(first)).as("the same built record, the same content").isEqualTo(msgId(first));
    }

    @Test
    void anAuditEntryBuiltWithoutATimeGetsOne() {
        AuditEntry entry = AuditEntry.builder("PutObject").bucket("photos").object("a.jpg").build();
        assertThat(entry.json().path("time").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
    }

    @Test
    void builtRecordWithEmptyBucketIsRefused() {
        assertThatThrownBy(() -> S3EventRecord.builder("s3:ObjectRemoved:Delete", "", "k").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("s3.bucket.name must not be empty");
    }

    @Test
    void recordIsNotChangedThroughItsInputOrItsJson() throws Exception {
        ObjectNode tree = (ObjectNode) JSON.readTree(
                "{\"eventName\":\"s3:ObjectCreated:Put\",\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{\"key\":\"k\"}},\"x\":1}");
        S3EventRecord record = S3EventRecord.of(tree);
        byte[] before = Envelopes.notify(record).payload();

        tree.put("x", 2);
        record.json().put("x", 3);

        assertThat(Envelopes.notify(record).payload()).isEqualTo(before);
        assertThat(record.json().get("x").intValue()).isEqualTo(1);
    }

    @Test
    void recordFromTreeWithoutKeyIsRefused() throws Exception {
        ObjectNode tree = (ObjectNode) JSON.readTree("{\"eventName\":\"e\",\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{}}}");

        assertThatThrownBy(() -> S3EventRecord.of(tree))
                .isInstanceOf(MalformedEventException.class)
                .hasMessage("s3.object.key is required");
    }

    @Test
    void builtAuditEntryIsRedactedBeforeAnyoneSeesIt() {
        AuditEntry entry = AuditEntry.builder("PutObject")
                .event("s3:PutObject")
                .bucket("photos")
                .object("a.jpg")
                .status("OK", 200)
                .requestHeader("authorization", "AWS4-HMAC-SHA256 Signature=abc")
                .requestHeader("X-AMZ-SECURITY-TOKEN", "tok")
                .requestHeader("Content-Type", "image/jpeg")
                .responseHeader("Set-Cookie", "s=1")
                .field("time", "2026-11-30T08:15:02.481Z")
                .build();

        assertThat(entry.requestHeader()).containsEntry("authorization", "***")
                .containsEntry("X-AMZ-SECURITY-TOKEN", "***")
                .containsEntry("Content-Type", "image/jpeg");
        assertThat(entry.json().at("/responseHeader/Set-Cookie").textValue()).isEqualTo("***");
        assertThat(new String(Envelopes.audit(entry).payload(), StandardCharsets.UTF_8)).isEqualTo(
                "{\"EventName\":\"s3:PutObject\",\"Key\":\"photos/PutObject\",\"Records\":[{\"object_name\":\"PutObject\","
                + "\"bucket_name\":\"photos\",\"event_name\":\"s3:PutObject\",\"data\":{\"version\":\"1\",\"api\":{"
                + "\"name\":\"PutObject\",\"bucket\":\"photos\",\"object\":\"a.jpg\",\"status\":\"OK\",\"statusCode\":200},"
                + "\"event\":\"s3:PutObject\",\"requestHeader\":{\"authorization\":\"***\",\"X-AMZ-SECURITY-TOKEN\":\"***\","
                + "\"Content-Type\":\"image/jpeg\"},\"responseHeader\":{\"Set-Cookie\":\"***\"},\"time\":\"2026-11-30T08:15:02.481Z\"}}]}");
    }

    @Test
    void auditEntryFromTreeRedactsWithoutTouchingTheCallersTree() throws Exception {
        ObjectNode tree = (ObjectNode) JSON.readTree("{\"requestHeader\":{\"Cookie\":\"id=7\"}}");

        AuditEntry entry = AuditEntry.of(tree);

        assertThat(entry.requestHeader()).containsEntry("Cookie", "***");
        assertThat(tree.at("/requestHeader/Cookie")).isEqualTo(new TextNode("id=7"));
        assertThatThrownBy(() -> entry.requestHeader().put("Cookie", "x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void auditEntryWithoutApiPublishesEmptyNames() throws Exception {
        OutboundEvent event = Envelopes.audit(AuditEntry.of(JSON.createObjectNode()));

        assertThat(new String(event.payload(), StandardCharsets.UTF_8)).isEqualTo(
                "{\"EventName\":\"\",\"Key\":\"/\",\"Records\":[{\"object_name\":\"\",\"bucket_name\":\"\",\"event_name\":\"\",\"data\":{}}]}");
        assertThat(event.metadata()).isEqualTo(new EventMetadata(TargetKind.AUDIT, "", "", "", ""));
    }

    @Test
    void rustfsAuditEntriesInTheWebhookEnvelopeAreUnwrapped() throws Exception {
        String body = "{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"photos/s3:PutObject\",\"Records\":["
            + "{\"version\":\"1.0\",\"time\":1762164942079,\"api\":{\"name\":\"s3:PutObject\",\"bucket\":\"photos\"}},"
            + "{\"version\":\"1.0\",\"api\":{\"name\":\"s3:GetObject\",\"bucket\":\"logs\"}}]}";
        List<OutboundEvent> events = EventParser.forKind(TargetKind.AUDIT).parse(body.getBytes(StandardCharsets.UTF_8));
        assertThat(events).extracting(e -> e.metadata().bucket()).containsExactly("photos", "logs");
        assertThat(events).extracting(e -> e.metadata().object()).containsExactly("s3:PutObject", "s3:GetObject");
    }

    @Test
    void anAuditEnvelopeWithNoEntriesIsRefused() {
        byte[] body = "{\"EventName\":\"x\",\"Records\":[]}".getBytes(StandardCharsets.UTF_8);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> EventParser.forKind(TargetKind.AUDIT).parse(body))
            .isInstanceOf(MalformedEventException.class).hasMessageContaining("at least one entry");
    }

    @Test
    void parserForEachKindReportsItsKind() {
        assertThat(EventParser.forKind(TargetKind.NOTIFY).kind()).isEqualTo(TargetKind.NOTIFY);
        assertThat(EventParser.forKind(TargetKind.AUDIT).kind()).isEqualTo(TargetKind.AUDIT);
    }

    private static String msgId(S3EventRecord record) {
        return MsgIds.forEvent(Envelopes.notify(record), MsgIdMode.CONTENT, TargetKind.NOTIFY, "_").orElseThrow();
    }
}

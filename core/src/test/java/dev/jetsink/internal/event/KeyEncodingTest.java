package dev.jetsink.internal.event;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.event.S3EventRecord;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.MsgIds;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Which records carry form-encoded keys, and what jetsink makes of each kind of key. */
class KeyEncodingTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The record a real radosgw 16.2.15 sent for a PUT (ceph-rgw-real-persist-ObjectCreated-Put),
     * with its key replaced by {@code %s}.
     */
    private static final String CEPH_RECORD = "{\"eventVersion\":\"2.2\",\"eventSource\":\"ceph:s3\",\"awsRegion\":\"\","
        + "\"eventTime\":\"2026-12-03T07:27:48.055232Z\",\"eventName\":\"ObjectCreated:Put\","
        + "\"userIdentity\":{\"principalId\":\"jetsink\"},\"requestParameters\":{\"sourceIPAddress\":\"\"},"
        + "\"responseElements\":{\"x-amz-request-id\":\"919c1d02-6e11-42c0-8145-b41445549541.4114.2217336890839810849\","
        + "\"x-amz-id-2\":\"1012-default-default\"},\"s3\":{\"s3SchemaVersion\":\"1.0\","
        + "\"configurationId\":\"notif-jetsink-persist\",\"bucket\":{\"name\":\"bkt-persist\","
        + "\"ownerIdentity\":{\"principalId\":\"jetsink\"},\"arn\":\"arn:aws:s3:::bkt-persist\","
        + "\"id\":\"919c1d02-6e11-42c0-8145-b41445549541.4116.2\"},\"object\":{\"key\":\"%s\",\"size\":14,"
        + "\"eTag\":\"f373f735ac706a4ebae092e0f173111b\",\"versionId\":\"\",\"sequencer\":\"F419116BEA145B03\","
        + "\"metadata\":[{\"key\":\"x-amz-meta-color\",\"val\":\"blue\"}],\"tags\":[]}},"
        + "\"eventId\":\"1796282868.056300.f373f735ac706a4ebae092e0f173111b\",\"opaqueData\":\"opaque-jetsink-persist\"}";

    @ParameterizedTest(name = "eventSource {0} -> {1}")
    @CsvSource({
        "ceph:s3,   NONE",
        "CEPH:S3,   NONE",
        "minio:s3,  FORM",
        "rustfs:s3, FORM",
        "aws:s3,    FORM",
        "ceph,      FORM",
        "'',        FORM",
    })
    void eventSourceDecidesTheKeyEncoding(String eventSource, KeyEncoding expected) {
        ObjectNode record = JSON.createObjectNode().put("eventSource", eventSource);

        assertThat(KeyEncoding.of(record)).isEqualTo(expected);
    }

    @Test
    void recordWithoutATextEventSourceIsFormEncoded() {
        assertThat(KeyEncoding.of(JSON.createObjectNode())).isEqualTo(KeyEncoding.FORM);
        assertThat(KeyEncoding.of(JSON.createObjectNode().put("eventSource", 7))).isEqualTo(KeyEncoding.FORM);
        assertThat(KeyEncoding.of(JSON.createObjectNode().putNull("eventSource"))).isEqualTo(KeyEncoding.FORM);
    }

    @ParameterizedTest(name = "Ceph key {0} is kept as sent")
    @ValueSource(strings = {"obj/a+b.txt", "obj/pct%41.txt", "a/dir/sp ace&\u00fc.txt", "trailing%", "50%+off"})
    void cephKeyIsTheKeyAsStored(String key) throws Exception {
        OutboundEvent event = parse(String.format(CEPH_RECORD, key));

        assertThat(event.metadata().object()).isEqualTo(key);
        assertThat(text(event)).startsWith("{\"EventName\":\"ObjectCreated:Put\",\"Key\":\"bkt-persist/" + key + "\","
            + "\"Records\":[{\"object_name\":\"" + key + "\",");
    }

    @ParameterizedTest(name = "{0} key {1} is decoded to {2}")
    @CsvSource(delimiter = '|', value = {
        "minio:s3  | obj%2Fa%2Bb.txt                  | obj/a+b.txt",
        "rustfs:s3 | obj%2Fpct%2541.txt               | obj/pct%41.txt",
        "aws:s3    | a/dir/sp+ace%26%C3%BC.txt        | a/dir/sp ace&\u00fc.txt",
        "minio:s3  | obj%2Fa+b.txt                    | obj/a b.txt",
    })
    void formEncodedKeyIsDecoded(String eventSource, String keyInRecord, String stored) throws Exception {
        String body = "{\"eventSource\":\"" + eventSource + "\",\"eventName\":\"s3:ObjectCreated:Put\","
            + "\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{\"key\":\"" + keyInRecord + "\"}}}";

        OutboundEvent event = parse(body);

        assertThat(event.metadata().object()).isEqualTo(stored);
        assertThat(text(event)).startsWith("{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"b/" + stored + "\","
            + "\"Records\":[{\"object_name\":\"" + keyInRecord + "\",");
    }

    @Test
    void builtCephRecordCarriesTheKeyUnencodedAndReadsItBack() {
        S3EventRecord record = S3EventRecord.builder("ObjectCreated:Put", "b", "obj/a+b %41.txt")
            .eventSource("ceph:s3").build();

        assertThat(record.objectKey()).isEqualTo("obj/a+b %41.txt");
        assertThat(record.decodedObjectKey()).isEqualTo("obj/a+b %41.txt");
    }

    @Test
    void builtRecordOfAnyOtherSourceCarriesTheKeyFormEncodedAndReadsItBack() {
        S3EventRecord record = S3EventRecord.builder("s3:ObjectCreated:Put", "b", "obj/a+b %41.txt")
            .eventSource("minio:s3").build();

        assertThat(record.objectKey()).isEqualTo("obj%2Fa%2Bb+%2541.txt");
        assertThat(record.decodedObjectKey()).isEqualTo("obj/a+b %41.txt");
    }

    @Test
    void cephEventKeepsTheMsgIdItHadWhenItsKeyWasDecoded() throws Exception {
        OutboundEvent event = parse(String.format(CEPH_RECORD, "obj/a+b.txt"));

        // Pinned from the build before this rule (which published Key "bkt-persist/obj/a b.txt"):
        // the msg id comes from the record's canonical form, which the key rule does not touch,
        // so a re-send after an upgrade still meets the id stored before it.
        assertThat(HexFormat.of().formatHex(event.contentDigest()))
            .isEqualTo("f479611085a626fabdb9569726ac5b60bb01d3078559e2648c982b0c60ffcdd4");
        assertThat(MsgIds.content(TargetKind.NOTIFY, "_", event.contentDigest()))
            .hasToString("dbae6507-426e-8307-91b6-288c944585aa");
    }

    private static OutboundEvent parse(String body) throws Exception {
        return EventParser.forKind(TargetKind.NOTIFY).parse(body.getBytes(StandardCharsets.UTF_8)).get(0);
    }

    private static String text(OutboundEvent event) {
        return new String(event.payload(), StandardCharsets.UTF_8);
    }
}

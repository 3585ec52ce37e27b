package dev.jetsink.server.ingest;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.FaultRig;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.cloudevents.CloudEvent;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.eventnotifications.s3.model.S3EventNotification;
import software.amazon.awssdk.eventnotifications.s3.model.S3EventNotificationRecord;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every format a target can publish in, read back from a real nats-server by consumers
 * no one here wrote: AWS's own S3 event parser for {@code aws}, the CloudEvents Java SDK for both
 * CloudEvents modes, for every sender fixture in {@code resources/senders/}. One daemon carries, per
 * kind, the default target (the envelope, stream FAULTS) and one target per other format (stream
 * FORMATS, subject {@code formats.<kind>.<format>}); each request reaches all of them. The
 * envelope's {@code data} is what each format must carry, and the attributes are checked against
 * the mapping DESIGN.md "Formats" states, computed here from the record itself.
 */
class FormatsIT {

    private static final String FORMATS = "FORMATS";
    private static FaultRig rig;

    @BeforeAll
    static void startRig() throws Exception {
        rig = FaultRig.notifyAndAudit();
        try {
            createFormatsStream();
            for (TargetKind kind : TargetKind.values()) {
                List<String> formats = kind == TargetKind.NOTIFY
                    ? List.of("aws", "cloudevents-binary", "cloudevents-structured")
                    : List.of("cloudevents-binary", "cloudevents-structured");
                for (String format : formats) {
                    String id = format.replace("cloudevents-", "CE").toUpperCase(java.util.Locale.ROOT);
                    String p = kind.envPrefix();
                    rig.env.put(p + "ENABLE_" + id, "on");
                    rig.env.put(p + "ADDRESS_" + id, rig.env.get(p + "ADDRESS"));
                    // aws's subject is a template: routing works in every format
                    rig.env.put(p + "SUBJECT_" + id, "formats." + kind.label() + "." + format + (id.equals("AWS") ? ".{bucket}" : ""));
                    rig.env.put(p + "JETSTREAM_ENABLE_" + id, "on");
                    rig.env.put(p + "JETSTREAM_STREAM_NAME_" + id, FORMATS);
                    rig.env.put(p + "QUEUE_DIR_" + id, rig.env.get(p + "QUEUE_DIR"));
                    rig.env.put(p + "FORMAT_" + id, format);
                }
            }
            rig.startDaemon();
        } catch (Exception | Error e) {
            rig.close();
            throw e;
        }
    }

    private static void createFormatsStream() throws Exception {
        Streams.create(rig.admin(), StreamSpec.of(FORMATS, "formats.>").duplicateWindow(Duration.ofMinutes(5)).build());
    }

    @AfterAll
    static void stopRig() throws Exception {
        rig.close();
    }

    @BeforeEach
    void newStreams() throws Exception {
        rig.recreateStream();
        Streams.delete(rig.admin(), FORMATS);
        createFormatsStream();
    }

    static Stream<Arguments> fixtures() {
        return Stream.of(
            Arguments.of("minio-notify-put.http", TargetKind.NOTIFY, 1),
            Arguments.of("minio-notify-delete.http", TargetKind.NOTIFY, 1),
            Arguments.of("rustfs-notify-put.http", TargetKind.NOTIFY, 1),
            Arguments.of("ceph-notify-put.http", TargetKind.NOTIFY, 1),
            Arguments.of("ceph-rgw-real-persist-ObjectCreated-Put.http", TargetKind.NOTIFY, 1),
            Arguments.of("ceph-rgw-real-persist-ObjectCreated-CompleteMultipartUpload.http", TargetKind.NOTIFY, 1),
            Arguments.of("ceph-rgw-real-persist-ObjectRemoved-Delete.http", TargetKind.NOTIFY, 1),
            Arguments.of("ceph-rgw-real-sync-ObjectCreated-Copy.http", TargetKind.NOTIFY, 1),
            Arguments.of("minio-audit-single.http", TargetKind.AUDIT, 1),
            Arguments.of("minio-audit-batch3.http", TargetKind.AUDIT, 3),
            Arguments.of("rustfs-audit.http", TargetKind.AUDIT, 1));
    }

    @ParameterizedTest(name = "{0} decodes in every format")
    @MethodSource("fixtures")
    void everyFormatDecodesWithAConsumerNoOneHereWrote(String fixture, TargetKind kind, int events) throws Exception {
        postExpecting200(SenderRequest.load(fixture).toPath("/" + kind.label()));
        Stored s = awaitStored(kind, events);
        List<ObjectNode> sent = s.envelopeData();

        if (kind == TargetKind.NOTIFY) {
            List<StoredMessage> aws = s.onSubject("formats.notify.aws");
            assertThat(aws).hasSize(events);
            for (StoredMessage m : aws) {
                S3EventNotification n = S3EventNotification.fromJson(new String(m.data(), StandardCharsets.UTF_8));
                assertThat(n.getRecords()).hasSize(1);
                S3EventNotificationRecord r = n.getRecords().get(0);
                ObjectNode record = sent.get(0);
                assertThat(r.getEventName()).isEqualTo(record.path("eventName").asText());
                assertThat(r.getS3().getBucket().getName()).isEqualTo(record.path("s3").path("bucket").path("name").asText());
                assertThat(r.getS3().getObject().getUrlDecodedKey()).as("the key as stored, decoded as AWS's parser decodes it")
                    .isEqualTo(storedKey(record));
                assertThat(r.getS3().getObject().getKey()).isEqualTo(awsKey(record));
                assertThat(m.headers().get("Jetsink-Bucket")).containsExactly(r.getS3().getBucket().getName());
                assertThat(m.subject()).isEqualTo("formats.notify.aws." + r.getS3().getBucket().getName());
            }
        }
        for (String mode : List.of("cloudevents-binary", "cloudevents-structured")) {
            List<StoredMessage> messages = s.onSubject("formats." + kind.label() + "." + mode);
            assertThat(messages).as(mode).hasSize(events);
            List<JsonNode> carried = new ArrayList<>();
            for (StoredMessage m : messages) {
                CloudEvent e = NatsCloudEvents.decode(m);
                JsonNode data = Json.READER.readTree(e.getData().toBytes());
                carried.add(data);
                assertAttributes(kind, e, (ObjectNode) data);
                assertThat(m.msgId()).as("every format keeps its msg id").isPresent();
                if (mode.endsWith("structured")) {
                    assertThat(m.headers().get("Content-Type")).containsExactly("application/cloudevents+json");
                }
            }
            assertThat(carried).as(mode + " carries each record or entry as its data")
                .containsExactlyInAnyOrderElementsOf(sent);
        }
        for (StoredMessage m : s.formats()) {
            assertThat(new String(m.data(), StandardCharsets.UTF_8) + m.headers())
                .as("no credential of a request reaches any format").doesNotContain("3fa9c23fa9c23fa9");
        }
    }

    @Test
    void cephsCloudEventsHeadersSurviveIngestAndTheSendersAttributesWin() throws Exception {
        SenderRequest ceph = SenderRequest.load("ceph-rgw-real-sync-ObjectCreated-Copy.http").toPath("/notify");
        ObjectNode record = (ObjectNode) Json.READER.readTree(ceph.body()).path("Records").path(0);
        String id = record.path("responseElements").path("x-amz-request-id").asText() + "."
            + record.path("responseElements").path("x-amz-id-2").asText();
        // what radosgw adds with cloudevents=true (rgw_pubsub_push.cc): no ".s3." in the type, raw key
        ceph = ceph.withHeaderAfterHost("ce-specversion: 1.0").withHeaderAfterHost("ce-type: com.amazonaws.ObjectCreated:Copy")
            .withHeaderAfterHost("ce-time: 2026-12-03T07:27:45.950719000Z").withHeaderAfterHost("ce-id: " + id)
            .withHeaderAfterHost("ce-source: ceph:s3..bkt-sync").withHeaderAfterHost("ce-subject: a/copy.txt");
        postExpecting200(ceph);
        Stored s = awaitStored(TargetKind.NOTIFY, 1);

        StoredMessage envelope = s.envelopes().get(0);
        assertThat(envelope.headers().get("ce-type")).as("kept on the envelope too").containsExactly("com.amazonaws.ObjectCreated:Copy");
        assertThat(envelope.headers().get("ce-id")).containsExactly(id);
        for (String mode : List.of("cloudevents-binary", "cloudevents-structured")) {
            CloudEvent e = NatsCloudEvents.decode(s.onSubject("formats.notify." + mode).get(0));
            assertThat(e.getType()).as(mode).isEqualTo("com.amazonaws.ObjectCreated:Copy");
            assertThat(e.getId()).isEqualTo(id);
            assertThat(e.getSource()).hasToString("ceph:s3..bkt-sync");
            assertThat(e.getSubject()).isEqualTo("a/copy.txt");
            assertThat(e.getTime().toInstant()).isEqualTo(Instant.parse("2026-12-03T07:27:45.950719Z"));
            assertThat(Json.READER.readTree(e.getData().toBytes())).isEqualTo(record);
        }
    }

    @Test
    void aStructuredCloudEventIsAcceptedItsDataParsedAndItsAttributesKept() throws Exception {
        byte[] minio = SenderRequest.load("minio-notify-put.http").body();
        ObjectNode event = Json.object().put("specversion", "1.0").put("id", "evt-1")
            .put("source", "/stores/minio-a").put("type", "com.example.object.created").put("xregion", "eu 1");
        event.set("data", Json.READER.readTree(minio));
        HttpResponse<String> answer = rig.post("/notify", "application/cloudevents+json; charset=utf-8",
            Json.WRITER.writeValueAsBytes(event));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        Stored s = awaitStored(TargetKind.NOTIFY, 1);

        assertThat(s.envelopes().get(0).headers().get("ce-xregion")).as("percent-encoded on NATS").containsExactly("eu%201");
        CloudEvent binary = NatsCloudEvents.decode(s.onSubject("formats.notify.cloudevents-binary").get(0));
        assertThat(binary.getId()).isEqualTo("evt-1");
        assertThat(binary.getType()).isEqualTo("com.example.object.created");
        assertThat(binary.getExtension("xregion")).isEqualTo("eu 1");
        assertThat(binary.getSubject()).as("derived where the sender said nothing").isEqualTo("2025%2Fcat+1.jpg");

        HttpResponse<String> old = rig.post("/notify", "application/cloudevents+json",
            Json.WRITER.writeValueAsBytes(event.deepCopy().put("specversion", "0.3")));
        assertThat(old.statusCode()).isEqualTo(400);
        assertThat(old.body()).contains("specversion");
    }

    private static void postExpecting200(SenderRequest request) throws Exception {
        var answer = request.replayTo(rig.base().getPort());
        assertThat(answer.status()).as(answer.statusLine() + " " + answer.text()).isEqualTo(200);
    }

    /** The expected attributes, restated from the mapping DESIGN.md "Formats" documents. */
    private static void assertAttributes(TargetKind kind, CloudEvent e, ObjectNode data) {
        assertThat(e.getSpecVersion().toString()).isEqualTo("1.0");
        assertThat(e.getDataContentType()).isEqualTo("application/json");
        if (kind == TargetKind.NOTIFY) {
            String rid = data.path("responseElements").path("x-amz-request-id").asText("");
            String id2 = data.path("responseElements").path("x-amz-id-2").asText("");
            if (rid.isEmpty() || id2.isEmpty()) {
                assertThat(e.getId()).matches("[0-9a-f]{64}");
            } else {
                assertThat(e.getId()).isEqualTo(rid + "." + id2);
            }
            assertThat(e.getSource()).hasToString(data.path("eventSource").asText() + "." + data.path("awsRegion").asText()
                + "." + data.path("s3").path("bucket").path("name").asText());
            assertThat(e.getType()).isEqualTo("com.amazonaws.s3." + data.path("eventName").asText().replaceFirst("^s3:", ""));
            assertThat(e.getSubject()).isEqualTo(awsKey(data));
            assertThat(e.getTime().toInstant()).isEqualTo(OffsetDateTime.parse(data.path("eventTime").asText()).toInstant());
        } else {
            assertThat(e.getId()).isEqualTo(data.path("requestID").asText());
            String origin = data.path("deploymentid").asText("");
            assertThat(e.getSource()).hasToString("urn:jetsink:audit:"
                + (origin.isEmpty() ? data.path("requestHost").asText() : origin));
            assertThat(e.getType()).isEqualTo("dev.jetsink.audit." + data.path("api").path("name").asText().replaceFirst("^s3:", ""));
            assertThat(e.getSubject()).isEqualTo(data.path("api").path("bucket").asText() + "/" + data.path("api").path("object").asText());
            JsonNode t = data.path("time");
            assertThat(e.getTime().toInstant()).isEqualTo(t.isNumber() ? Instant.ofEpochMilli(t.longValue())
                : OffsetDateTime.parse(t.asText()).toInstant());
        }
    }

    private static boolean ceph(ObjectNode record) {
        return record.path("eventSource").asText().equals("ceph:s3");
    }

    private static String storedKey(ObjectNode record) {
        String key = record.path("s3").path("object").path("key").asText();
        return ceph(record) ? key : java.net.URLDecoder.decode(key, StandardCharsets.UTF_8);
    }

    private static String awsKey(ObjectNode record) {
        String key = record.path("s3").path("object").path("key").asText();
        return ceph(record) ? URLEncoder.encode(key, StandardCharsets.UTF_8) : key;
    }

    /** Waits until every target of {@code kind} has stored {@code events}: one envelope, one message per other format. */
    private static Stored awaitStored(TargetKind kind, int events) throws Exception {
        int others = kind == TargetKind.NOTIFY ? 3 : 2;
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
            .until(() -> rig.streamCount() >= events && Streams.state(rig.admin(), FORMATS).getMsgCount() >= (long) others * events);
        Stored s = new Stored(rig.readStream(), Streams.readAll(rig.admin(), FORMATS));
        assertThat(s.envelopes()).hasSize(events);
        assertThat(s.formats()).hasSize(others * events);
        return s;
    }

    private record Stored(List<StoredMessage> envelopes, List<StoredMessage> formats) {
        List<StoredMessage> onSubject(String subject) {
            return formats.stream().filter(m -> m.subject().equals(subject) || m.subject().startsWith(subject + ".")).toList();
        }

        List<ObjectNode> envelopeData() throws Exception {
            List<ObjectNode> data = new ArrayList<>();
            for (StoredMessage m : envelopes) {
                data.add((ObjectNode) Json.READER.readTree(m.data()).path("Records").path(0).path("data"));
            }
            return data;
        }
    }
}

package dev.jetsink.server.ingest;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.FaultRig;
import dev.jetsink.server.testing.RawHttp;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Object keys with {@code +}, {@code %41}, spaces and non-ASCII, sent in every sender's own
 * request ({@code resources/senders/}, the key swapped in the way that sender writes it) to
 * {@code jetsink serve}, and read back from a real stream: the envelope's {@code Key}, the
 * {@code Jetsink-Key} header and a {@code {key_prefix:3}} subject name the object as it is stored
 * in the bucket. MinIO and RustFS form-encode the key in the record; Ceph RGW writes it as stored,
 * so its {@code a+b.txt} is a plus sign and its {@code pct%41.txt} a percent sign. Audit entries
 * carry the object name unencoded ({@code api.object}) and publish it unchanged.
 */
class SenderKeysIT {

    private static final String TOKEN = "s3cret";
    private static final String KEY_SUBJECT = FaultRig.SUBJECT + ".{key_prefix:3}";

    /**
     * One object key: as stored in the bucket, as MinIO and RustFS write it in a record
     * (Go {@code url.QueryEscape} and Rust {@code form_urlencoded} agree on these characters),
     * the subject token(s) of its first three segments and its {@code Jetsink-Key} header value.
     */
    private record ObjectKey(String stored, String formEncoded, String subjectTail, String header) {
    }

    private static final List<ObjectKey> KEYS = List.of(
        new ObjectKey("obj/a+b.txt", "obj%2Fa%2Bb.txt", "obj.a%2Bb%2Etxt", "obj/a+b.txt"),
        new ObjectKey("obj/pct%41.txt", "obj%2Fpct%2541.txt", "obj.pct%2541%2Etxt", "obj/pct%2541.txt"),
        new ObjectKey("a/dir/sp ace&\u00fc.txt", "a%2Fdir%2Fsp+ace%26%C3%BC.txt", "a.dir.sp%20ace%26%C3%BC%2Etxt",
            "a/dir/sp ace&%C3%BC.txt"),
        new ObjectKey("\u65e5\u672c/\u5199\u771f \ud83d\ude00+%20.jpg",
            "%E6%97%A5%E6%9C%AC%2F%E5%86%99%E7%9C%9F+%F0%9F%98%80%2B%2520.jpg",
            "%E6%97%A5%E6%9C%AC.%E5%86%99%E7%9C%9F%20%F0%9F%98%80%2B%2520%2Ejpg",
            "%E6%97%A5%E6%9C%AC/%E5%86%99%E7%9C%9F %F0%9F%98%80+%2520.jpg"));

    private static final Pattern OBJECT_KEY = Pattern.compile("\"object\":\\{\"key\":\"[^\"]*\"");
    private static final Pattern WRAPPER_KEY = Pattern.compile("^\\{\"EventName\":\"[^\"]*\",\"Key\":\"[^\"]*\"");
    private static final Pattern BUCKET = Pattern.compile("\"bucket\":\\{\"name\":\"([^\"]+)\"");
    private static final Pattern AUDIT_OBJECT = Pattern.compile("\"object\":\"[^\"]*\"");

    private static FaultRig rig;

    @BeforeAll
    static void startDaemon() throws Exception {
        rig = FaultRig.notifyAndAudit();
        try {
            rig.env.put("JETSINK_INGEST_TOKEN", TOKEN);
            rig.env.put(TargetKind.NOTIFY.envPrefix() + "SUBJECT", KEY_SUBJECT);
            Streams.update(rig.admin(), StreamSpec.of(FaultRig.STREAM, FaultRig.SUBJECT, FaultRig.SUBJECT + ".>")
                .duplicateWindow(Duration.ofMinutes(5)).build());
            rig.startDaemon();
        } catch (Exception | Error e) {
            rig.close();
            throw e;
        }
    }

    @AfterAll
    static void stopDaemon() throws Exception {
        rig.close();
    }

    @BeforeEach
    void emptyTheStream() throws Exception {
        rig.admin().jetStreamManagement().purgeStream(FaultRig.STREAM);
    }

    @ParameterizedTest(name = "{0}: Key, Jetsink-Key and subject name the stored object")
    @ValueSource(strings = {
        "minio-notify-put.http", "minio-notify-delete.http", "rustfs-notify-put.http", "ceph-notify-put.http",
        "ceph-rgw-real-persist-ObjectCreated-Put.http", "ceph-rgw-real-persist-ObjectCreated-CompleteMultipartUpload.http",
        "ceph-rgw-real-persist-ObjectRemoved-Delete.http", "ceph-rgw-real-sync-ObjectCreated-Copy.http"})
    void notifyKeyIsPublishedAsTheObjectIsStored(String fixture) throws Exception {
        boolean ceph = fixture.startsWith("ceph-");
        SenderRequest original = authorized(fixture);
        String bucket = first(BUCKET, text(original)).group(1);

        for (ObjectKey key : KEYS) {
            String inRecord = ceph ? key.stored() : key.formEncoded();
            SenderRequest request = withNotifyKey(original, bucket, inRecord, key.stored());
            RawHttp.Response answer = request.replayTo(rig.base().getPort());
            assertThat(answer.status()).as(key.stored() + ": " + answer.statusLine() + " " + answer.text()).isEqualTo(200);
        }

        List<StoredMessage> stored = awaitStream(KEYS.size());
        for (ObjectKey key : KEYS) {
            String inRecord = ceph ? key.stored() : key.formEncoded();
            StoredMessage m = stored.stream()
                .filter(s -> envelope(s).at("/Records/0/data/s3/object/key").asText().equals(inRecord))
                .findFirst().orElseThrow(() -> new AssertionError("no message whose record key is " + inRecord));
            JsonNode envelope = envelope(m);
            assertThat(envelope.path("Key").asText()).as("Key").isEqualTo(bucket + "/" + key.stored());
            assertThat(envelope.at("/Records/0/object_name").asText()).as("object_name: the key as the record writes it")
                .isEqualTo(inRecord);
            assertThat(m.header("Jetsink-Key")).as("Jetsink-Key").contains(key.header());
            assertThat(m.subject()).isEqualTo(FaultRig.SUBJECT + "." + key.subjectTail());
        }
    }

    @ParameterizedTest(name = "{0}: api.object is published unchanged")
    @ValueSource(strings = {"minio-audit-single.http", "minio-audit-batch3.http", "rustfs-audit.http"})
    void auditObjectNameIsPublishedUnchanged(String fixture) throws Exception {
        // MinIO's single and batch fixtures share an entry; a request id of the fixture's own keeps
        // that entry from being taken for a re-send (same content, same msg id) by the shared stream.
        SenderRequest original = authorized(fixture);
        original = original.withBody(text(original).replace("\"requestID\":\"", "\"requestID\":\"" + fixture + "-")
            .getBytes(StandardCharsets.UTF_8));
        int entries = (int) AUDIT_OBJECT.matcher(text(original)).results().count();

        for (ObjectKey key : KEYS) {
            String body = AUDIT_OBJECT.matcher(text(original)).replaceAll(Matcher.quoteReplacement(
                "\"object\":\"" + key.stored() + "\""));
            RawHttp.Response answer = original.withBody(body.getBytes(StandardCharsets.UTF_8)).replayTo(rig.base().getPort());
            assertThat(answer.status()).as(key.stored() + ": " + answer.statusLine() + " " + answer.text()).isEqualTo(200);
        }

        List<StoredMessage> stored = awaitStream(KEYS.size() * entries);
        for (StoredMessage m : stored) {
            JsonNode envelope = envelope(m);
            JsonNode api = envelope.at("/Records/0/data/api");
            assertThat(KEYS).extracting(ObjectKey::stored).contains(api.path("object").asText());
            assertThat(envelope.path("Key").asText()).isEqualTo(api.path("bucket").asText() + "/" + api.path("name").asText());
            assertThat(m.header("Jetsink-Api")).contains(api.path("name").asText());
            assertThat(m.subject()).isEqualTo(FaultRig.SUBJECT);
        }
        assertThat(stored).extracting(m -> envelope(m).at("/Records/0/data/api/object").asText())
            .as("every key, once per entry of the request").hasSize(KEYS.size() * entries)
            .containsAll(KEYS.stream().map(ObjectKey::stored).toList());
    }

    /** The fixture with the ingest token in the form its sender uses. */
    private static SenderRequest authorized(String fixture) {
        SenderRequest request = SenderRequest.load(fixture);
        if (fixture.startsWith("ceph-")) {
            return request.withHeaderAfterHost("Authorization: " + SenderRequest.basic("ceph", TOKEN));
        }
        return request;
    }

    /**
     * The request with {@code inRecord} as {@code s3.object.key} and, in the MinIO/RustFS wrapper,
     * {@code <bucket>/<stored>} as the top-level {@code Key} (those stores write it decoded).
     */
    private static SenderRequest withNotifyKey(SenderRequest request, String bucket, String inRecord, String stored) {
        String body = text(request);
        first(OBJECT_KEY, body);
        body = OBJECT_KEY.matcher(body).replaceFirst(Matcher.quoteReplacement("\"object\":{\"key\":\"" + inRecord + "\""));
        Matcher wrapper = WRAPPER_KEY.matcher(body);
        if (wrapper.find()) {
            String eventName = wrapper.group().substring(0, wrapper.group().indexOf(",\"Key\":"));
            body = eventName + ",\"Key\":\"" + bucket + "/" + stored + "\"" + body.substring(wrapper.end());
        }
        return request.withBody(body.getBytes(StandardCharsets.UTF_8));
    }

    private static List<StoredMessage> awaitStream(int messages) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
            .until(() -> rig.notifyQueueLength() == 0 && rig.metric(TargetKind.AUDIT.queueLengthMetric()) == 0
                && rig.streamCount() >= messages);
        List<StoredMessage> stored = Awaitility.await().atMost(Duration.ofSeconds(5)).until(rig::readStream,
            l -> l.size() >= messages);
        assertThat(stored).as("one message per request and entry").hasSize(messages);
        return stored;
    }

    private static Matcher first(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        assertThat(m.find()).as(pattern + " in " + text).isTrue();
        return m;
    }

    private static String text(SenderRequest request) {
        return new String(request.body(), StandardCharsets.UTF_8);
    }

    private static JsonNode envelope(StoredMessage m) {
        try {
            return Json.READER.readTree(m.data());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

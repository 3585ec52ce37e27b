package dev.jetsink.s3proxy;

import dev.jetsink.Jetsink;
import dev.jetsink.PayloadFormat;
import dev.jetsink.Sink;
import dev.jetsink.event.S3EventRecord;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.eventnotifications.s3.model.S3EventNotification;
import software.amazon.awssdk.eventnotifications.s3.model.S3EventNotificationRecord;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * S3Proxy with notifications, driven by the AWS SDK for Java v2 as any S3 client would drive it,
 * against a real nats-server: every PutObject, CopyObject, CompleteMultipartUpload, DeleteObject
 * and DeleteObjects key becomes one record in the stream (in the {@code aws} format, read back by
 * AWS's own parser), each durable before S3Proxy answered; multipart bookkeeping sends nothing.
 */
class NotifyingS3ProxyTest {

    private static final String STREAM = "S3PROXY";
    private static final String SUBJECT = "s3proxy.events";

    @TempDir
    Path queue;

    @Test
    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    void everyObjectChangeIsARecordInTheStreamDurableBeforeTheAnswer() throws Exception {
        try (NatsServer nats = NatsServer.startDefault(); Connection admin = Nats.connect(nats.url())) {
            Streams.create(admin, StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofMinutes(5)).build());
            try (Sink<S3EventRecord> sink = Jetsink.notifySink().servers(nats.url()).subject(SUBJECT).jetStream(STREAM)
                    .queueDir(queue).format(PayloadFormat.AWS).build()) {
                S3Proxy proxy = start(sink, NotifyingBlobStore.Mode.DURABLE);
                try (S3Client s3 = client(proxy)) {
                    List<Long> heldAfterEachAnswer = new ArrayList<>();
                    s3.createBucket(b -> b.bucket("photos"));
                    s3.putObject(p -> p.bucket("photos").key("2025/cat 1.jpg").contentType("image/jpeg"),
                        RequestBody.fromString("meow"));
                    heldAfterEachAnswer.add(held(sink, admin));
                    s3.copyObject(c -> c.sourceBucket("photos").sourceKey("2025/cat 1.jpg")
                        .destinationBucket("photos").destinationKey("copies/cat 1.jpg"));
                    heldAfterEachAnswer.add(held(sink, admin));
                    String upload = s3.createMultipartUpload(m -> m.bucket("photos").key("big.bin")).uploadId();
                    String etag = s3.uploadPart(u -> u.bucket("photos").key("big.bin").uploadId(upload).partNumber(1),
                        RequestBody.fromBytes(new byte[1000])).eTag();
                    s3.completeMultipartUpload(c -> c.bucket("photos").key("big.bin").uploadId(upload)
                        .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build())));
                    heldAfterEachAnswer.add(held(sink, admin));
                    s3.deleteObject(d -> d.bucket("photos").key("2025/cat 1.jpg"));
                    heldAfterEachAnswer.add(held(sink, admin));
                    s3.deleteObjects(d -> d.bucket("photos").delete(x -> x.objects(
                        ObjectIdentifier.builder().key("copies/cat 1.jpg").build(),
                        ObjectIdentifier.builder().key("big.bin").build())));
                    heldAfterEachAnswer.add(held(sink, admin));
                    // an event being acknowledged is counted in the queue and in the stream: at least, not exactly
                    assertThat(heldAfterEachAnswer).as("events queued or stored when each answer came")
                        .satisfiesExactly(n -> assertThat(n).isGreaterThanOrEqualTo(1), n -> assertThat(n).isGreaterThanOrEqualTo(2),
                            n -> assertThat(n).isGreaterThanOrEqualTo(3), n -> assertThat(n).isGreaterThanOrEqualTo(4),
                            n -> assertThat(n).isGreaterThanOrEqualTo(6));
                } finally {
                    proxy.stop();
                }
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> Streams.state(admin, STREAM).getMsgCount() == 6);
                List<S3EventNotificationRecord> records = new ArrayList<>();
                for (StoredMessage m : Streams.readAll(admin, STREAM)) {
                    S3EventNotification n = S3EventNotification.fromJson(new String(m.data(), StandardCharsets.UTF_8));
                    assertThat(n.getRecords()).hasSize(1);
                    records.add(n.getRecords().get(0));
                }
                assertThat(records).extracting(S3EventNotificationRecord::getEventName).containsExactly(
                    "ObjectCreated:Put", "ObjectCreated:Copy", "ObjectCreated:CompleteMultipartUpload",
                    "ObjectRemoved:Delete", "ObjectRemoved:Delete", "ObjectRemoved:Delete");
                assertThat(records).extracting(r -> r.getS3().getObject().getUrlDecodedKey()).containsExactly(
                    "2025/cat 1.jpg", "copies/cat 1.jpg", "big.bin", "2025/cat 1.jpg", "copies/cat 1.jpg", "big.bin");
                assertThat(records).extracting(r -> r.getS3().getBucket().getName()).containsOnly("photos");
                assertThat(records).extracting(S3EventNotificationRecord::getEventSource).containsOnly("s3proxy:s3");
                assertThat(records.get(0).getS3().getObject().getSizeAsLong()).isEqualTo(4L);
                assertThat(records.get(2).getS3().getObject().getSizeAsLong()).isEqualTo(1000L);
                assertThat(records.get(0).getS3().getObject().getETag()).isNotBlank();
            }
        }
    }

    @Test
    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    void aChangeWhoseEventCannotBeQueuedIsAnsweredWithAnErrorSoTheClientRetries() throws Exception {
        try (NatsServer nats = NatsServer.startDefault(); Connection admin = Nats.connect(nats.url())) {
            Streams.create(admin, StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofMinutes(5)).build());
            Sink<S3EventRecord> sink = Jetsink.notifySink().servers(nats.url()).subject(SUBJECT).jetStream(STREAM)
                .queueDir(queue).queueLimit(1).build();
            S3Proxy proxy = start(sink, NotifyingBlobStore.Mode.DURABLE);
            try (S3Client s3 = client(proxy)) {
                s3.createBucket(b -> b.bucket("photos"));
                Streams.delete(admin, STREAM); // nothing leaves the queue now: the next event finds it full
                s3.putObject(p -> p.bucket("photos").key("first"), RequestBody.fromString("1"));
                assertThatThrownBy(() -> s3.putObject(p -> p.bucket("photos").key("second"), RequestBody.fromString("2")))
                    .isInstanceOf(S3Exception.class)
                    .satisfies(e -> assertThat(((S3Exception) e).statusCode()).as("retryable, unlike a 4xx").isEqualTo(500));
                assertThat(sink.queueLength()).isEqualTo(1);
                assertThat(s3.headObject(h -> h.bucket("photos").key("second")).contentLength())
                    .as("the change itself is stored; the client's retry brings its event").isEqualTo(1L);
            } finally {
                proxy.stop();
                sink.close(Duration.ofSeconds(1));
            }
        }
    }

    @Test
    void fireAndForgetAnswersAtOnceAndLogsAnEventTheQueueRefuses() throws Exception {
        try (NatsServer nats = NatsServer.startDefault()) {
            Sink<S3EventRecord> sink = Jetsink.notifySink().servers(nats.url()).subject(SUBJECT).jetStream(STREAM)
                .queueDir(queue).queueLimit(1).build();
            S3Proxy proxy = start(sink, NotifyingBlobStore.Mode.FIRE_AND_FORGET);
            try (S3Client s3 = client(proxy)) {
                s3.createBucket(b -> b.bucket("photos"));
                // no stream: nothing leaves the queue, so the second event is refused
                s3.putObject(p -> p.bucket("photos").key("first"), RequestBody.fromString("1"));
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> sink.queueLength() == 1);
                s3.putObject(p -> p.bucket("photos").key("second"), RequestBody.fromString("2"));
                assertThat(s3.headObject(h -> h.bucket("photos").key("second")).contentLength()).isEqualTo(1L);
                assertThat(sink.queueLength()).as("the refused event is not queued").isEqualTo(1);
            } finally {
                proxy.stop();
                sink.close(Duration.ofSeconds(1));
            }
        }
    }

    private static long held(Sink<S3EventRecord> sink, Connection admin) throws Exception {
        long queued = sink.queueLength(); // read first: an event leaving the queue is then in the stream
        return queued + Streams.state(admin, STREAM).getMsgCount();
    }

    private static S3Proxy start(Sink<S3EventRecord> sink, NotifyingBlobStore.Mode mode) throws Exception {
        BlobStore store = ContextBuilder.newBuilder("transient").build(BlobStoreContext.class).getBlobStore();
        S3Proxy proxy = NotifyingS3Proxy.builder(store, sink, mode, Duration.ofSeconds(10), URI.create("http://127.0.0.1:0"))
            .build();
        proxy.start();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> "STARTED".equals(proxy.getState()));
        return proxy;
    }

    private static S3Client client(S3Proxy proxy) {
        return S3Client.builder().endpointOverride(URI.create("http://127.0.0.1:" + proxy.getPort()))
            .region(Region.US_EAST_1).forcePathStyle(true)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("id", "secret")))
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            .build();
    }
}

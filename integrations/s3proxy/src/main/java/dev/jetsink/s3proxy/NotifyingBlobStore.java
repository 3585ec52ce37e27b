package dev.jetsink.s3proxy;

import dev.jetsink.Sink;
import dev.jetsink.event.S3EventRecord;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.domain.Blob;
import org.jclouds.blobstore.domain.BlobMetadata;
import org.jclouds.blobstore.domain.MultipartPart;
import org.jclouds.blobstore.domain.MultipartUpload;
import org.jclouds.blobstore.options.CopyOptions;
import org.jclouds.blobstore.options.PutOptions;
import org.jclouds.blobstore.util.ForwardingBlobStore;
import org.jclouds.http.HttpResponseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A jclouds {@link BlobStore} that sends an S3 event record through a jetsink {@link Sink} after
 * each change S3Proxy makes through it: PutObject, CopyObject, CompleteMultipartUpload,
 * DeleteObject and every key of DeleteObjects. In {@link Mode#DURABLE} the call returns (and
 * S3Proxy answers the client) only once the event is durable in the sink's queue; when it cannot
 * be made durable the call fails, the client gets an error and retries, and the retry's event is
 * the one kept. In {@link Mode#FIRE_AND_FORGET} the answer does not wait, and an event the queue
 * refuses is logged.
 *
 * <p>The stub blob that filesystem and in-memory stores keep for an open multipart upload (named
 * by the upload id) is S3Proxy's bookkeeping, not an object: its writes and removal send nothing.
 */
public final class NotifyingBlobStore extends ForwardingBlobStore {

    /** When the store's answer is sent. */
    public enum Mode {
        /** After the event is durable in the sink's queue. */
        DURABLE,
        /** At once; the event is queued in the background. */
        FIRE_AND_FORGET
    }

    /** The {@code eventSource} of the records: this gateway, form-encoding its keys as AWS does. */
    public static final String EVENT_SOURCE = "s3proxy:s3";
    private static final Logger log = LoggerFactory.getLogger(NotifyingBlobStore.class);

    private final Sink<S3EventRecord> sink;
    private final Mode mode;
    private final Duration bound;
    private final String region;
    private final Clock clock;
    private final Set<String> openUploads = ConcurrentHashMap.newKeySet();

    /**
     * @param delegate the store S3Proxy serves
     * @param sink     where the events go
     * @param mode     whether answers wait for durability
     * @param bound    how long an answer waits for it at most ({@code DURABLE})
     * @param region   the {@code awsRegion} of the records, may be empty
     */
    public NotifyingBlobStore(BlobStore delegate, Sink<S3EventRecord> sink, Mode mode, Duration bound, String region) {
        this(delegate, sink, mode, bound, region, Clock.systemUTC());
    }

    NotifyingBlobStore(BlobStore delegate, Sink<S3EventRecord> sink, Mode mode, Duration bound, String region, Clock clock) {
        super(delegate);
        this.sink = Objects.requireNonNull(sink, "sink");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.bound = Objects.requireNonNull(bound, "bound");
        this.region = Objects.requireNonNull(region, "region");
        this.clock = clock;
    }

    @Override
    public String putBlob(String container, Blob blob) {
        return putBlob(container, blob, PutOptions.NONE);
    }

    @Override
    public String putBlob(String container, Blob blob, PutOptions options) {
        String etag = delegate().putBlob(container, blob, options);
        String name = blob.getMetadata().getName();
        if (!openUploads.contains(name)) {
            Long size = blob.getMetadata().getContentMetadata().getContentLength();
            send(List.of(record("ObjectCreated:Put", container, name, size, etag)));
        }
        return etag;
    }

    @Override
    public String copyBlob(String fromContainer, String fromName, String toContainer, String toName, CopyOptions options) {
        String etag = delegate().copyBlob(fromContainer, fromName, toContainer, toName, options);
        BlobMetadata copied = delegate().blobMetadata(toContainer, toName);
        Long size = copied == null ? null : copied.getContentMetadata().getContentLength();
        send(List.of(record("ObjectCreated:Copy", toContainer, toName, size, etag)));
        return etag;
    }

    @Override
    public MultipartUpload initiateMultipartUpload(String container, BlobMetadata blob, PutOptions options) {
        MultipartUpload upload = delegate().initiateMultipartUpload(container, blob, options);
        openUploads.add(upload.id());
        return upload;
    }

    @Override
    public String completeMultipartUpload(MultipartUpload upload, List<MultipartPart> parts) {
        String etag = delegate().completeMultipartUpload(upload, parts);
        long size = 0;
        for (MultipartPart p : parts) {
            size += p.partSize();
        }
        send(List.of(record("ObjectCreated:CompleteMultipartUpload", upload.containerName(), upload.blobName(), size, etag)));
        return etag;
    }

    @Override
    public void removeBlob(String container, String name) {
        delegate().removeBlob(container, name);
        if (openUploads.remove(name)) {
            return; // the upload's stub, removed when it completes or is aborted
        }
        send(List.of(record("ObjectRemoved:Delete", container, name, null, null)));
    }

    @Override
    public void removeBlobs(String container, Iterable<String> names) {
        delegate().removeBlobs(container, names);
        List<S3EventRecord> records = new ArrayList<>();
        for (String name : names) {
            records.add(record("ObjectRemoved:Delete", container, name, null, null));
        }
        send(records);
    }

    private S3EventRecord record(String eventName, String bucket, String key, Long size, String etag) {
        S3EventRecord.Builder b = S3EventRecord.builder(eventName, bucket, key).eventSource(EVENT_SOURCE)
            .awsRegion(region).eventTime(clock.instant());
        if (size != null && size >= 0) {
            b.size(size);
        }
        if (etag != null) {
            b.eTag(etag.replace("\"", ""));
        }
        return b.build();
    }

    private void send(List<S3EventRecord> records) {
        List<CompletableFuture<?>> queued = new ArrayList<>(records.size());
        for (S3EventRecord r : records) {
            queued.add(sink.send(r));
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(queued.toArray(CompletableFuture[]::new));
        if (mode == Mode.FIRE_AND_FORGET) {
            all.whenComplete((ok, failure) -> {
                if (failure != null) {
                    log.error("s3proxy event not queued, the change is stored without its event error=\"{}\"",
                        failure.toString());
                }
            });
            return;
        }
        try {
            all.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw notDurable(e);
        } catch (ExecutionException | TimeoutException e) {
            throw notDurable(e.getCause() == null ? e : e.getCause());
        }
    }

    /**
     * What S3Proxy answers 500 with (an {@code HttpResponseException} without a response; an
     * {@code IllegalStateException} would be a 400, which S3 clients do not retry): the client
     * retries the request, and the retry's event is the one kept.
     */
    private static HttpResponseException notDurable(Throwable cause) {
        log.error("s3proxy change stored but its event not queued durably, answering 500 error=\"{}\"", cause.toString());
        return new HttpResponseException("the change was stored but its event could not be queued durably: "
            + cause.getClass().getSimpleName(), null, null, cause);
    }
}

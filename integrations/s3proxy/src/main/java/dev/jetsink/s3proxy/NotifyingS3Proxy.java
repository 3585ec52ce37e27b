package dev.jetsink.s3proxy;

import dev.jetsink.Jetsink;
import dev.jetsink.Sink;
import dev.jetsink.event.S3EventRecord;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * Runs S3Proxy with bucket notifications: {@code java -jar jetsink-s3proxy.jar s3proxy.conf}. The
 * file is S3Proxy's own ({@code s3proxy.endpoint}, {@code s3proxy.authorization},
 * {@code jclouds.provider}, ...) plus {@code jetsink.mode} ({@code durable}, the default, or
 * {@code fire-and-forget}), {@code jetsink.bound-seconds} (default 30) and
 * {@code jetsink.region}; the notify target comes from the environment, exactly as the daemon
 * reads it ({@code RUSTFS_NOTIFY_NATS_*}). OPERATIONS.md "A Java S3 gateway" shows a whole setup.
 */
public final class NotifyingS3Proxy {

    private NotifyingS3Proxy() {
    }

    /**
     * An S3Proxy serving {@code store} at {@code endpoint}, sending every change through {@code sink}.
     *
     * @param endpoint e.g. {@code http://127.0.0.1:8080}; port 0 picks a free one ({@link S3Proxy#getPort()})
     * @return the proxy, not yet started
     */
    public static S3Proxy.Builder builder(BlobStore store, Sink<S3EventRecord> sink, NotifyingBlobStore.Mode mode,
                                          Duration bound, URI endpoint) {
        return S3Proxy.builder().blobStore(new NotifyingBlobStore(store, sink, mode, bound, ""))
            .endpoint(endpoint).ignoreUnknownHeaders(true);
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: NotifyingS3Proxy <s3proxy.conf>");
            System.exit(2);
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
            p.load(in);
        }
        String modeName = p.getProperty("jetsink.mode", "durable").trim();
        NotifyingBlobStore.Mode mode = switch (modeName) {
            case "durable" -> NotifyingBlobStore.Mode.DURABLE;
            case "fire-and-forget" -> NotifyingBlobStore.Mode.FIRE_AND_FORGET;
            default -> throw new IllegalArgumentException("jetsink.mode must be durable or fire-and-forget: " + modeName);
        };
        Duration bound = Duration.ofSeconds(Long.parseLong(p.getProperty("jetsink.bound-seconds", "30").trim()));
        String provider = p.getProperty("jclouds.provider");
        if (provider == null) {
            throw new IllegalArgumentException("jclouds.provider is not set in " + args[0]);
        }
        BlobStore store = ContextBuilder.newBuilder(provider).overrides(p).build(BlobStoreContext.class).getBlobStore();
        Sink<S3EventRecord> sink = Jetsink.notifyFromEnvironment(System.getenv()).build();
        S3Proxy proxy = S3Proxy.Builder.fromProperties(p)
            .blobStore(new NotifyingBlobStore(store, sink, mode, bound, p.getProperty("jetsink.region", "")))
            .ignoreUnknownHeaders(true).build();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                proxy.stop();
            } catch (Exception e) {
                System.err.println("s3proxy stop failed: " + e);
            }
            sink.close();
        }, "s3proxy-stop"));
        proxy.start();
        System.out.println("s3proxy with notifications listening on port " + proxy.getPort() + ", events to "
            + sink.target() + " (" + modeName + ")");
        Thread.currentThread().join();
    }
}

package dev.jetsink.server.demo;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The demo's sender: posts sample webhook requests (one event each, shaped like a MinIO webhook)
 * from a few concurrent clients, retrying a request until it is acknowledged, and remembers the id
 * of every event the daemon answered 200 for.
 */
public final class DemoBurst {

    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    final AtomicInteger retried = new AtomicInteger();

    DemoBurst(URI base) {
        this.base = base;
    }

    /** Sends {@code notify} notify events and {@code audit} audit entries with {@code clients} senders. */
    void send(int notify, int audit, int clients) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        int total = notify + audit;
        // Interleave the kinds (every k-th request is audit) so the broker kill lands amid both.
        int every = audit == 0 ? Integer.MAX_VALUE : total / audit;
        for (int i = 0; i < total; i++) {
            int n = i;
            boolean isAudit = audit > 0 && n % every == 0 && n / every < audit;
            pool.execute(() -> post(isAudit ? "/audit" : "/notify", isAudit ? "demo-a-" + n : "demo-n-" + n));
        }
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.MINUTES);
    }

    private void post(String path, String eventId) {
        String body = path.equals("/audit") ? audit(eventId) : notify(eventId);
        HttpRequest req = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json").header("User-Agent", "jetsink-demo")
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build();
        for (int attempt = 0; attempt < 100; attempt++) {
            try {
                HttpResponse<Void> r = http.send(req, HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    acknowledged.add(eventId);
                    return;
                }
            } catch (java.io.IOException e) {
                // connection trouble: retry like a store's webhook target would
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            retried.incrementAndGet();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static String notify(String id) {
        String key = id + ".txt";
        return "{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"demo/" + key + "\",\"Records\":[{"
            + "\"eventVersion\":\"2.0\",\"eventSource\":\"minio:s3\",\"awsRegion\":\"\","
            + "\"eventTime\":\"2026-01-01T00:00:00.000Z\",\"eventName\":\"s3:ObjectCreated:Put\","
            + "\"userIdentity\":{\"principalId\":\"demo\"},\"requestParameters\":{\"sourceIPAddress\":\"127.0.0.1\"},"
            + "\"responseElements\":{\"x-amz-request-id\":\"" + id + "\"},"
            + "\"s3\":{\"s3SchemaVersion\":\"1.0\",\"configurationId\":\"Config\","
            + "\"bucket\":{\"name\":\"demo\",\"ownerIdentity\":{\"principalId\":\"demo\"},\"arn\":\"arn:aws:s3:::demo\"},"
            + "\"object\":{\"key\":\"" + key + "\",\"size\":42,\"eTag\":\"d41d8cd98f00b204e9800998ecf8427e\","
            + "\"contentType\":\"text/plain\",\"sequencer\":\"1805F5B3A6F00000\"}}}]}";
    }

    private static String audit(String id) {
        return "{\"version\":\"1\",\"deploymentid\":\"demo\",\"time\":\"2026-01-01T00:00:00.000Z\",\"event\":\"\","
            + "\"trigger\":\"incoming\",\"api\":{\"name\":\"PutObject\",\"bucket\":\"demo\",\"object\":\"" + id + ".txt\","
            + "\"status\":\"OK\",\"statusCode\":200},\"remotehost\":\"127.0.0.1\",\"requestID\":\"" + id + "\","
            + "\"userAgent\":\"jetsink-demo\",\"requestHeader\":{\"Authorization\":\"AWS4-HMAC-SHA256 demo\"}}";
    }
}

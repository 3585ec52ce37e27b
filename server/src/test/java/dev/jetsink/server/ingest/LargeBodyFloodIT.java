package dev.jetsink.server.ingest;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventParser;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile bodies at their largest: many senders at once each post a body just under the
 * 4 MiB limit, thousands of S3 records each, most of them malformed in their last record (so the
 * daemon parses all of it before refusing it). The daemon runs with the launcher's heap. It must
 * answer every request — 400 for the malformed, 200 or 503 (busy, retry later) for the valid —
 * never run out of memory, and still deliver what it acknowledged.
 */
class LargeBodyFloodIT {

    private static final int SENDERS = 48;
    /** Generous: on two loaded cores the accept of 48 connections at once can take seconds. */
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(30)).build();

    @Test
    void concurrentMaximalBodiesAreAnsweredAndTheDaemonSurvives() throws Exception {
        int requests = FaultRig.count(96, 480);
        byte[] malformed = bigWebhook(0, true);
        Map<String, AtomicInteger> byOutcome = new ConcurrentHashMap<>();
        List<String> bad = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicInteger acceptedEvents = new AtomicInteger();
        long started = System.nanoTime();
        try (FaultRig rig = FaultRig.notifyOnly().startDaemon()) {
            ExecutorService pool = Executors.newFixedThreadPool(SENDERS);
            try {
                List<Future<?>> sent = new ArrayList<>();
                for (int i = 0; i < requests; i++) {
                    boolean valid = i % 16 == 0;
                    int first = i * 100_000;
                    sent.add(pool.submit(() -> {
                        byte[] body = valid ? bigWebhook(first, false) : malformed;
                        String outcome;
                        try {
                            HttpResponse<String> r = http.send(HttpRequest.newBuilder(rig.base().resolve("/notify"))
                                .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
                            outcome = Integer.toString(r.statusCode());
                            boolean expected = valid ? r.statusCode() == 200 || r.statusCode() == 503 : r.statusCode() == 400
                                || r.statusCode() == 503;
                            if (!expected) {
                                bad.add((valid ? "valid" : "malformed") + " -> " + r.statusCode() + " " + r.body());
                            } else if (r.statusCode() == 200) {
                                acceptedEvents.addAndGet(Json.READER.readTree(r.body()).get("accepted").asInt());
                            }
                        } catch (Exception e) {
                            outcome = "no answer";
                            bad.add((valid ? "valid" : "malformed") + " -> " + e);
                        }
                        byOutcome.computeIfAbsent((valid ? "valid:" : "malformed:") + outcome, k -> new AtomicInteger())
                            .incrementAndGet();
                        return null;
                    }));
                }
                for (Future<?> f : sent) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            Map<String, Integer> summary = new TreeMap<>();
            byOutcome.forEach((k, v) -> summary.put(k, v.get()));
            boolean alive = rig.daemonAlive();
            boolean drained = alive && rig.awaitDrained(acceptedEvents.get(), Duration.ofSeconds(120));
            System.out.println("fault scenario=large-body-flood requests=" + requests + " senders=" + SENDERS
                + " body_bytes=" + malformed.length + " seconds=" + Duration.ofNanos(System.nanoTime() - started).toSeconds()
                + " accepted_events=" + acceptedEvents.get() + " bad_answers=" + bad.size() + " by_kind_and_status=" + summary);
            assertThat(alive).as("daemon alive\n" + tail(rig.daemonLog())).isTrue();
            assertThat(rig.daemonLog()).doesNotContain("OutOfMemoryError");
            assertThat(bad).as("every request answered as expected").isEmpty();
            if (summary.keySet().stream().anyMatch(k -> k.endsWith(":503"))) {
                assertThat(rig.daemonLog()).as("busy refusals are logged").contains("ingest busy, requests refused with 503");
            }
            assertThat(rig.metric(TargetKind.NOTIFY.metricPrefix() + "total_messages")).isEqualTo(acceptedEvents.get());
            assertThat(drained).as("everything acknowledged delivered").isTrue();
            assertThat(rig.streamCount()).isEqualTo(acceptedEvents.get());
        }
    }

    /**
     * A webhook body just under the ingest limit: copies of one S3 record with distinct keys
     * numbered from {@code first}; when {@code broken}, the last record's {@code s3} is a number.
     */
    static byte[] bigWebhook(int first, boolean broken) throws Exception {
        ObjectNode template = (ObjectNode) Json.READER.readTree(EventLoad.body(first));
        ObjectNode record = (ObjectNode) template.get("Records").get(0);
        int recordBytes = Json.WRITER.writeValueAsBytes(record).length + 40;
        int count = (EventParser.MAX_EVENT_BODY_BYTES - 4096) / recordBytes;
        ArrayNode records = template.putArray("Records");
        for (int i = 0; i < count; i++) {
            ObjectNode r = record.deepCopy();
            ((ObjectNode) r.get("s3").get("object")).put("key", "flood/ev-" + (first + i) + ".json");
            records.add(r);
        }
        if (broken) {
            ((ObjectNode) records.get(count - 1)).put("s3", 42);
        }
        byte[] body = Json.WRITER.writeValueAsBytes(template);
        if (body.length > EventParser.MAX_EVENT_BODY_BYTES) {
            throw new IllegalStateException("body of " + body.length + " bytes is over the limit");
        }
        return body;
    }

    private static String tail(String log) {
        return log.length() > 4000 ? log.substring(log.length() - 4000) : log;
    }
}

package dev.jetsink.server;

import dev.jetsink.internal.event.Json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.ServeProcess;
import dev.jetsink.server.testing.WebhookFixtures;
import dev.jetsink.testkit.StoredMessage;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code jetsink serve} as its own process: SIGTERM, exit codes, log format (DESIGN.md "Daemon").
 */
class ServeProcessTest {

    @Test
    void sigtermDuringAStreamOfRequestsLosesNoAcknowledgedEventAndExitsZero() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            Map<String, String> env = new HashMap<>(h.env);
            env.put("RUSTFS_NOTIFY_NATS_JETSTREM_ENABLE", "on");
            Set<String> acknowledged = ConcurrentHashMap.newKeySet();
            AtomicInteger refused = new AtomicInteger();
            try (ServeProcess serve = ServeProcess.start(env, "--allow-unknown-keys")) {
                URI base = URI.create("http://127.0.0.1:" + serve.awaitPort(Duration.ofSeconds(60)));
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
                AtomicInteger next = new AtomicInteger();
                Thread[] senders = new Thread[8];
                for (int s = 0; s < senders.length; s++) {
                    senders[s] = new Thread(() -> {
                        while (true) {
                            int n = next.getAndIncrement();
                            HttpRequest req = HttpRequest.newBuilder(base.resolve("/notify"))
                                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(30))
                                .POST(HttpRequest.BodyPublishers.ofString(WebhookFixtures.putPhoto(n))).build();
                            try {
                                HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
                                if (r.statusCode() == 200) {
                                    acknowledged.add("photos/my photo " + n + ".jpg");
                                    continue;
                                }
                                refused.incrementAndGet();
                            } catch (IOException | InterruptedException e) {
                                refused.incrementAndGet();
                            }
                            return;
                        }
                    });
                    senders[s].start();
                }
                await().atMost(Duration.ofSeconds(60)).until(() -> acknowledged.size() >= 300);
                assertThat(serve.terminate(Duration.ofSeconds(30))).as(serve.log()).isZero();
                for (Thread t : senders) {
                    t.join(30_000);
                }
                assertThat(refused.get()).as("every sender stopped at a refusal").isEqualTo(senders.length);
                assertThat(serve.log()).contains("configuration key problem", "JETSTREM_ENABLE", "shutdown complete");
            }
            // Whatever was not yet published stayed queued: the next start delivers it.
            h.start();
            await().atMost(DaemonHarness.AWAIT).until(() -> h.readStream(DaemonHarness.STREAM).size() >= acknowledged.size());
            Set<String> stored = new HashSet<>();
            for (StoredMessage m : h.readStream(DaemonHarness.STREAM)) {
                JsonNode json = Json.READER.readTree(m.text());
                stored.add(json.get("Key").asText());
            }
            assertThat(stored).containsAll(acknowledged);
        }
    }

    @Test
    void jsonLogFormatWritesOneJsonObjectPerLine() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            Map<String, String> env = new HashMap<>(h.env);
            env.put("JETSINK_LOG_FORMAT", "json");
            try (ServeProcess serve = ServeProcess.start(env)) {
                serve.awaitPort(Duration.ofSeconds(60));
                assertThat(serve.terminate(Duration.ofSeconds(30))).isZero();
                String listening = serve.lines().stream().filter(l -> l.contains("http listening")).findFirst().orElseThrow();
                JsonNode json = Json.READER.readTree(listening);
                assertThat(json.get("level").asText()).isEqualTo("INFO");
                assertThat(json.get("formattedMessage").asText()).startsWith("http listening address=127.0.0.1:");
                assertThat(serve.lines()).anyMatch(l -> l.contains("target starting") && l.startsWith("{"));
            }
        }
    }

    @Test
    void unknownKeyRefusesToStartWithExit2() throws Exception {
        try (DaemonHarness h = new DaemonHarness()) {
            Map<String, String> env = new HashMap<>(h.env);
            env.put("RUSTFS_NOTIFY_NATS_JETSTREM_ENABLE", "on");
            try (ServeProcess serve = ServeProcess.start(env)) {
                assertThat(serve.awaitExit(Duration.ofSeconds(60))).isEqualTo(ExitCode.USAGE);
                assertThat(serve.log()).contains("level=ERROR",
                    "unknown configuration key RUSTFS_NOTIFY_NATS_JETSTREM_ENABLE", "--allow-unknown-keys");
            }
        }
    }

    @Test
    void httpAddressInUseExitsOneBeforeOpeningAnyQueue() throws Exception {
        try (DaemonHarness h = new DaemonHarness();
             java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Map<String, String> env = new HashMap<>(h.env);
            env.put("JETSINK_HTTP_ADDRESS", "127.0.0.1:" + taken.getLocalPort());
            try (ServeProcess serve = ServeProcess.start(env)) {
                assertThat(serve.awaitExit(Duration.ofSeconds(60))).isEqualTo(ExitCode.FAILURE);
                assertThat(serve.log()).contains("cannot start", "BindException");
                assertThat(java.nio.file.Files.list(h.queueRoot).count()).as("no queue opened").isZero();
            }
        }
    }
}

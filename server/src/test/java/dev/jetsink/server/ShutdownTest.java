package dev.jetsink.server;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.HalfSentPost;
import dev.jetsink.server.testing.WebhookFixtures;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The SIGTERM path in-process (DESIGN.md "Daemon"): new requests get 503, a request in progress is
 * answered.
 */
class ShutdownTest {

    @Test
    void requestInProgressAtShutdownIsQueuedAndNewRequestsGet503WithRetryAfter() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream().start();
             Socket slow = new Socket("127.0.0.1", h.daemon.address().getPort())) {
            HalfSentPost inProgress = HalfSentPost.start(slow, WebhookFixtures.putPhoto(1));
            await().atMost(DaemonHarness.AWAIT).until(() -> h.daemon.gate().inside() == 1);

            CompletableFuture<Void> shutdown = CompletableFuture.runAsync(h.daemon::shutdown);
            await().atMost(DaemonHarness.AWAIT).until(() -> h.daemon.gate().isClosed());
            HttpResponse<String> late = h.post("/notify", WebhookFixtures.putPhoto(2));
            assertThat(late.statusCode()).isEqualTo(503);
            assertThat(late.headers().firstValue("Retry-After")).isPresent();
            assertThat(late.body()).contains("shutting down");
            assertThat(shutdown).as("shutdown waits for the request in progress").isNotDone();

            inProgress.finish();
            BufferedReader in = new BufferedReader(new InputStreamReader(slow.getInputStream(), StandardCharsets.UTF_8));
            assertThat(in.readLine()).isEqualTo("HTTP/1.1 200 OK");
            shutdown.get(30, TimeUnit.SECONDS);
            assertThat(h.target(TargetKind.NOTIFY, "_").counters().acceptedCount()).as("only the request in progress").isEqualTo(1);
        }
    }
}

package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.ServeProcess;
import dev.jetsink.server.testing.WebhookFixtures;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code systemctl reload jetsink}: SIGHUP to a {@code serve --config FILE} process re-reads the
 * file and applies the difference in targets (DESIGN.md "Daemon").
 */
class ReloadProcessTest {
    private static final Duration AWAIT = Duration.ofSeconds(60);

    @Test
    void sighupAppliesAnEditedConfigFileAndRefusesAnInvalidOneKeepingTheTargets() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withoutTargets(TargetKind.AUDIT)) {
            Streams.create(h.admin(), StreamSpec.of("EVENTS", "rustfs.>").duplicateWindow(Duration.ofSeconds(274)).build());
            Streams.create(h.admin(), StreamSpec.of("SECOND", "second.events").duplicateWindow(Duration.ofSeconds(274)).build());
            Path config = h.queueRoot.resolveSibling(h.queueRoot.getFileName() + ".env");
            Map<String, String> first = new TreeMap<>(h.env);
            first.putAll(h.jetStreamTarget(TargetKind.NOTIFY, "", "EVENTS", "rustfs.events"));
            write(config, first);
            try (ServeProcess serve = ServeProcess.start(Map.of(), "--config", config.toString())) {
                URI base = URI.create("http://127.0.0.1:" + serve.awaitPort(AWAIT));
                post(base, 1);
                await().atMost(AWAIT).until(() -> subjects(h, "EVENTS").equals("rustfs.events"));

                Map<String, String> edited = new TreeMap<>(first);
                edited.put("RUSTFS_NOTIFY_NATS_SUBJECT", "rustfs.changed");
                edited.putAll(h.jetStreamTarget(TargetKind.NOTIFY, "_SECOND", "SECOND", "second.events"));
                write(config, edited);
                hangUp(serve);
                await().atMost(AWAIT).until(() -> serve.log().contains("reload done"));
                assertThat(serve.log()).contains(
                    "reload: target replaced target=\\\"notify _:nats\\\" changed=subject",
                    "reload: target added target=\\\"notify second:nats\\\" path=jetstream",
                    "reload done added=1 replaced=1 removed=0 unchanged=0 failed=0");
                post(base, 2);
                await().atMost(AWAIT).until(() -> subjects(h, "EVENTS").equals("rustfs.events,rustfs.changed")
                    && subjects(h, "SECOND").equals("second.events"));

                Map<String, String> broken = new TreeMap<>(edited);
                broken.put("RUSTFS_NOTIFY_NATS_PUBLISH_WINDOW_SECOND", "0");
                write(config, broken);
                hangUp(serve);
                await().atMost(AWAIT).until(() -> serve.log().contains("reload refused error="));
                assertThat(serve.log()).contains("reload refused, the running targets are kept: 1 configuration error(s)",
                    "RUSTFS_NOTIFY_NATS_PUBLISH_WINDOW_SECOND");
                post(base, 3);
                await().atMost(AWAIT).until(() -> subjects(h, "EVENTS").equals("rustfs.events,rustfs.changed,rustfs.changed")
                    && subjects(h, "SECOND").equals("second.events,second.events"));
                assertThat(serve.log()).as("one summary: the refused reload changed nothing")
                    .containsOnlyOnce("reload done");
                assertThat(serve.terminate(AWAIT)).as(serve.log()).isZero();
            }
        }
    }

    private static void write(Path file, Map<String, String> variables) throws Exception {
        Files.writeString(file, variables.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining("\n", "", "\n")));
    }

    private static void hangUp(ServeProcess serve) throws Exception {
        Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(serve.process.pid())).inheritIO().start();
        assertThat(kill.waitFor()).isZero();
    }

    private static void post(URI base, int n) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(base.resolve("/notify"))
            .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(WebhookFixtures.putPhoto(n)))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    private static String subjects(DaemonHarness h, String stream) throws Exception {
        return h.readStream(stream).stream().map(StoredMessage::subject).collect(Collectors.joining(","));
    }
}

package dev.jetsink.server.testing;

import dev.jetsink.internal.config.JetsinkConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.server.Daemon;
import dev.jetsink.server.cli.ServeCommand;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A real nats-server with the default stream, and the daemon running in-process on an ephemeral
 * loopback port with one notify and one audit JetStream target, spoken to over real sockets.
 */
public final class DaemonHarness implements AutoCloseable {

    public static final String STREAM = "EVENTS";
    public static final String SUBJECT = "rustfs.events";
    public static final Duration AWAIT = Duration.ofSeconds(30);

    public final NatsServer nats;
    public final Path queueRoot;
    public final Map<String, String> env = new HashMap<>();
    public final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Connection admin;
    public Daemon daemon;

    public DaemonHarness() throws IOException {
        this.nats = NatsServer.builder().build().start();
        this.queueRoot = Files.createTempDirectory("jetsink-daemon-test");
        env.put("JETSINK_HTTP_ADDRESS", "127.0.0.1:0");
        for (TargetKind kind : TargetKind.values()) {
            env.putAll(jetStreamTarget(kind, "", STREAM));
        }
    }

    /** Variables of one JetStream target; {@code suffix} is {@code ""} or {@code "_<ID>"}. */
    public Map<String, String> jetStreamTarget(TargetKind kind, String suffix, String stream) {
        return jetStreamTarget(kind, suffix, stream, SUBJECT);
    }

    public Map<String, String> jetStreamTarget(TargetKind kind, String suffix, String stream, String subject) {
        String p = kind.envPrefix();
        return Map.of(
            p + "ENABLE" + suffix, "on",
            p + "ADDRESS" + suffix, nats.url(),
            p + "SUBJECT" + suffix, subject,
            p + "JETSTREAM_ENABLE" + suffix, "on",
            p + "JETSTREAM_STREAM_NAME" + suffix, stream,
            p + "JETSTREAM_ACK_TIMEOUT_SECS" + suffix, "10",
            p + "QUEUE_DIR" + suffix, queueRoot.toString());
    }

    /** Drops every variable of {@code kind}'s targets, so a test can configure its own instances. */
    public DaemonHarness withoutTargets(TargetKind kind) {
        env.keySet().removeIf(k -> k.startsWith(kind.envPrefix()));
        return this;
    }

    public DaemonHarness with(Map<String, String> vars) {
        env.putAll(vars);
        return this;
    }

    public Connection admin() throws IOException, InterruptedException {
        if (admin == null) {
            admin = Nats.connect(new Options.Builder().server(nats.url()).maxReconnects(-1)
                .reconnectWait(Duration.ofMillis(100)).build());
        }
        return admin;
    }

    public DaemonHarness withDefaultStream() throws IOException, InterruptedException {
        Streams.create(admin(), StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofSeconds(274)).build());
        return this;
    }

    /** Starts the daemon from {@link #env}. */
    public DaemonHarness start() throws IOException {
        StringWriter err = new StringWriter();
        Optional<JetsinkConfig> config = ServeCommand.resolve(env, Optional.empty(), false, new PrintWriter(err));
        if (config.isEmpty()) {
            throw new IllegalArgumentException("test config invalid: " + err);
        }
        daemon = Daemon.start(config.get());
        return this;
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + daemon.address().getPort() + path);
    }

    /** A request shaped like a MinIO webhook target's: JSON body, MinIO user agent. */
    public HttpRequest.Builder webhook(String path, String body) {
        return HttpRequest.newBuilder(uri(path)).timeout(AWAIT)
            .header("Content-Type", "application/json")
            .header("User-Agent", "MinIO (linux; amd64) minio-go/v7.0.90")
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    }

    public HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return send(webhook(path, body).build());
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).timeout(AWAIT).GET().build());
    }

    public HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    public NatsTarget target(TargetKind kind, String id) {
        return daemon.targets(kind).target(id).orElseThrow();
    }

    public List<StoredMessage> readStream(String stream) throws IOException, InterruptedException {
        return Streams.readAll(admin(), stream);
    }

    /** Closes everything; an interrupt while closing the admin connection is kept in the thread's flag. */
    @Override
    public void close() throws IOException {
        if (daemon != null) {
            daemon.shutdown();
        }
        boolean interrupted = false;
        if (admin != null) {
            try {
                admin.close();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        nats.close();
        deleteTree(queueRoot);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}

package dev.jetsink.internal.targets;

import dev.jetsink.internal.config.ConfigLoader;
import dev.jetsink.internal.config.LoadedConfig;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.delivery.Dispatcher;
import dev.jetsink.internal.delivery.StreamConcurrency;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.time.ManualSleeper;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.testkit.FakeClock;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A real nats-server, an admin connection, and targets built from environment-style config with
 * an injected clock and sleeper, so behaviour tests await lifecycle events and advance time
 * instead of sleeping through backoff.
 */
final class TargetHarness implements AutoCloseable {

    static final String STREAM = "EVENTS";
    static final String SUBJECT = "rustfs.events";
    static final Duration AWAIT = Duration.ofSeconds(30);

    final NatsServer server;
    final Path queueRoot;
    final FakeClock clock = new FakeClock(Instant.parse("2026-12-02T10:00:00Z"));
    final ManualSleeper sleeper = new ManualSleeper(clock);
    final LifecycleEvents events = new LifecycleEvents();
    final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final List<NatsTarget> targets = new ArrayList<>();
    private Connection admin;

    TargetHarness() throws IOException {
        this(NatsServer.builder().build().start());
    }

    TargetHarness(NatsServer server) throws IOException {
        this.server = server;
        this.queueRoot = Files.createTempDirectory("jetsink-target-test");
    }

    /** A connection for provisioning streams and reading them back; reconnects after a restart. */
    Connection admin() throws IOException, InterruptedException {
        if (admin == null) {
            admin = Nats.connect(new Options.Builder().server(server.url()).maxReconnects(-1)
                .reconnectWait(Duration.ofMillis(100)).build());
        }
        return admin;
    }

    void createStream(StreamSpec spec) throws IOException, InterruptedException {
        Streams.create(admin(), spec);
    }

    /** The stream every test uses unless it says otherwise: captures the subject, window 274 s. */
    void createDefaultStream() throws IOException, InterruptedException {
        createStream(StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofSeconds(274)).build());
    }

    List<StoredMessage> readStream() throws IOException, InterruptedException {
        return Streams.readAll(admin(), STREAM);
    }

    /** Environment-style settings for one JetStream target of {@code kind} on this server. */
    Map<String, String> jetStreamEnv(TargetKind kind) {
        Map<String, String> env = new HashMap<>();
        String p = kind.envPrefix();
        env.put(p + "ENABLE", "on");
        env.put(p + "ADDRESS", server.url());
        env.put(p + "SUBJECT", SUBJECT);
        env.put(p + "JETSTREAM_ENABLE", "on");
        env.put(p + "JETSTREAM_STREAM_NAME", STREAM);
        env.put(p + "JETSTREAM_ACK_TIMEOUT_SECS", "10");
        env.put(p + "QUEUE_DIR", queueRoot.toString());
        return env;
    }

    static TargetConfig config(Map<String, String> env) {
        LoadedConfig loaded = ConfigLoader.load(env, Optional.empty());
        if (!loaded.valid()) {
            throw new IllegalArgumentException("test config invalid: " + loaded.errors());
        }
        return loaded.config().activeTargets().get(0);
    }

    TargetRuntime runtime() {
        return new TargetRuntime(clock, sleeper, events, new StreamConcurrency(20), 1.0, scheduler);
    }

    /** Opens and starts a target; closed with the harness. */
    NatsTarget start(TargetConfig config) {
        NatsTarget t = NatsTarget.open(config, runtime());
        targets.add(0, t);
        t.start();
        if (t.connectedServer().isPresent()) {
            // jnats reports CONNECTED on its own thread, and the hook ends any backoff sleep early:
            // let it land before a test counts sleeps.
            try {
                events.await(LifecycleEvent.ConnectionChanged.class,
                    e -> e.event() == LifecycleEvent.ConnectionEvent.CONNECTED, AWAIT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return t;
    }

    static OutboundEvent event(TargetKind kind, int i) {
        String json = "{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"photos/obj-" + i + "\",\"n\":" + i + "}";
        return new OutboundEvent(new EventMetadata(kind, "photos", "obj-" + i, "s3:ObjectCreated:Put", ""),
            json.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends and waits until every event is durably queued. */
    static void sendAll(NatsTarget t, TargetKind kind, int from, int count) {
        for (int i = from; i < from + count; i++) {
            TargetSends.send(t, event(kind, i)).join();
        }
    }

    /**
     * Waits (at most {@link #AWAIT}) until the target's dispatcher has started {@code n} publish
     * attempts in all: with the server paused, that many are in flight.
     */
    static void awaitAttemptsStarted(NatsTarget t, long n) {
        Dispatcher d = t.dispatcher().orElseThrow();
        org.awaitility.Awaitility.await().atMost(AWAIT).pollInterval(Duration.ofMillis(10))
            .until(() -> d.attemptsStarted() >= n);
    }

    void awaitResolved(int count) throws InterruptedException {
        events.awaitCount(LifecycleEvent.EntryResolved.class, e -> true, count, AWAIT);
    }

    /**
     * Waits until the target's queue is empty, releasing every backoff sleep the dispatcher takes
     * on the way (the injected sleeper), so recovery never waits out a real 4..32 s backoff.
     */
    void awaitDrained(NatsTarget t, Duration atMost) {
        org.awaitility.Awaitility.await().atMost(atMost).pollInterval(Duration.ofMillis(50)).until(() -> {
            if (!sleeper.pendingDurations().isEmpty()) {
                sleeper.advance(Duration.ofSeconds(40));
            }
            return t.queueLength() == 0;
        });
    }

    /** Closes everything; an interrupt while closing the admin connection is kept in the thread's flag. */
    @Override
    public void close() {
        for (NatsTarget t : targets) {
            t.close();
        }
        boolean interrupted = false;
        if (admin != null) {
            try {
                admin.close();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        scheduler.shutdownNow();
        server.close();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}

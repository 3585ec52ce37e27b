package dev.jetsink.server.demo;

import dev.jetsink.internal.event.Json;
import dev.jetsink.internal.config.ConfigLoader;
import dev.jetsink.internal.config.JetsinkConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.server.Daemon;
import dev.jetsink.server.ExitCode;
import dev.jetsink.server.LogSetup;
import dev.jetsink.server.http.HttpJson;
import dev.jetsink.server.http.StatusTable;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jetsink demo [--keep]}: the newcomer's proof. A throw-away JetStream server,
 * a correctly sized stream, jetsink with one notify and one audit target, a burst of webhook
 * requests with the broker SIGKILLed and restarted in the middle, then a table of what the stream
 * holds. Exit 0 only when every acknowledged event is in the stream exactly once.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Prove delivery end to end: burst, broker SIGKILL + restart, count what arrived.")
public final class DemoCommand implements Callable<Integer> {

    // Held strongly: java.util.logging forgets the level of a logger nobody references.
    private static final java.util.logging.Logger NATS_JUL = java.util.logging.Logger.getLogger("io.nats.client");

    @Option(names = "--keep", description = "leave nats-server and jetsink running afterwards (Ctrl-C stops them)")
    boolean keep;

    @Option(names = "--events", paramLabel = "N", description = "events to send (default ${DEFAULT-VALUE})")
    int events = 4000;

    /** Concurrent webhook senders: enough that requests share the queue's group commit. */
    private static final int SENDERS = 32;

    @Spec
    CommandSpec spec;

    private final Map<String, String> env;

    public DemoCommand() {
        this(System.getenv());
    }

    public DemoCommand(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Optional<Path> binary = NatsServerBinary.locate(env);
        if (binary.isEmpty()) {
            spec.commandLine().getErr().println("nats-server not found (looked at $" + NatsServerBinary.ENV
                + ", PATH and " + NatsServerBinary.DEBIAN + "); install it: apt-get install nats-server");
            return ExitCode.FAILURE;
        }
        LogSetup.quiet();
        // jnats reports every failed reconnect through java.util.logging; the kill is on purpose.
        NATS_JUL.setLevel(java.util.logging.Level.OFF);
        long t0 = System.nanoTime();
        Path work = Files.createTempDirectory("jetsink-demo-");
        DemoBroker broker = new DemoBroker(binary.get(), work.resolve("nats")).start();
        Daemon daemon = null;
        try (Connection admin = Nats.connect(new Options.Builder().server(broker.url()).maxReconnects(-1)
                .reconnectWait(Duration.ofMillis(100)).build())) {
            // The version the server itself announces (INFO), so a report names the broker it ran on.
            out.printf("nats-server %s at %s (JetStream, store %s)%n", admin.getServerInfo().getVersion(), broker.url(),
                work.resolve("nats/store"));
            DemoStream.provision(admin);
            out.printf("stream %s: file storage, duplicate window %d s (ack timeout %d s)%n", DemoStream.NAME,
                dev.jetsink.internal.nats.DuplicateWindow.requiredSeconds(DemoStream.ACK_TIMEOUT_SECS), DemoStream.ACK_TIMEOUT_SECS);
            daemon = Daemon.start(config(broker.url(), work.resolve("queue")));
            URI base = URI.create("http://127.0.0.1:" + daemon.address().getPort());
            out.printf("jetsink listening on %s (notify -> %s, audit -> %s)%n", base, DemoStream.NOTIFY_SUBJECT,
                DemoStream.AUDIT_SUBJECT);
            out.flush();
            DemoBurst burst = new DemoBurst(base);
            int audit = events / 4;
            Thread sender = new Thread(() -> {
                try {
                    burst.send(events - audit, audit, SENDERS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "jetsink-demo-burst");
            sender.start();
            while (burst.acknowledged.size() < events / 3 && sender.isAlive()) {
                Thread.sleep(5);
            }
            out.printf("%s %d events acknowledged; SIGKILL nats-server mid-burst%n", at(t0), burst.acknowledged.size());
            out.flush();
            broker.kill();
            Thread.sleep(1000);
            broker.restart();
            out.printf("%s nats-server restarted on the same port and store; %d events acknowledged so far%n",
                at(t0), burst.acknowledged.size());
            out.flush();
            sender.join();
            out.printf("%s burst done: %d events acknowledged; waiting for the queues to drain%n", at(t0),
                burst.acknowledged.size());
            out.flush();
            List<NatsTarget> targets = List.of(daemon.targets(TargetKind.NOTIFY).targets().get(0),
                daemon.targets(TargetKind.AUDIT).targets().get(0));
            boolean drained = awaitDrained(targets, Duration.ofSeconds(120));
            out.printf("%s queues %s; reading the stream back%n", at(t0), drained ? "drained" : "NOT drained after 120 s");
            out.println();
            out.println("$ jetsink status");
            out.print(StatusTable.render(Json.READER.readTree(
                java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(base.resolve("/status"))
                    .build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body())));
            DemoStream.Tally tally = DemoStream.read(admin);
            return report(out, burst, tally, targets, drained);
        } finally {
            if (keep) {
                out.printf("--keep: nats-server and jetsink keep running (work dir %s); press Ctrl-C to stop%n", work);
                out.flush();
                Daemon running = daemon;
                // Ctrl-C must not orphan the nats-server child; the work dir stays for a look.
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    if (running != null) {
                        running.shutdown();
                    }
                    broker.close();
                }, "jetsink-demo-stop"));
                Thread.currentThread().join();
            }
            if (daemon != null) {
                daemon.shutdown();
            }
            broker.close();
            deleteTree(work);
        }
    }

    private JetsinkConfig config(String url, Path queueDir) {
        Map<String, String> vars = new HashMap<>();
        for (TargetKind kind : TargetKind.values()) {
            String p = kind.envPrefix();
            vars.put(p + "ENABLE", "on");
            vars.put(p + "ADDRESS", url);
            vars.put(p + "SUBJECT", kind == TargetKind.NOTIFY ? DemoStream.NOTIFY_SUBJECT : DemoStream.AUDIT_SUBJECT);
            vars.put(p + "JETSTREAM_ENABLE", "on");
            vars.put(p + "JETSTREAM_STREAM_NAME", DemoStream.NAME);
            vars.put(p + "JETSTREAM_ACK_TIMEOUT_SECS", Integer.toString(DemoStream.ACK_TIMEOUT_SECS));
            vars.put(p + "QUEUE_DIR", queueDir.toString());
        }
        vars.put("JETSINK_HTTP_ADDRESS", "127.0.0.1:0");
        // Retry sleeps at 1/20 so the demo finishes in seconds (for tests and drills only).
        vars.put("JETSINK_BACKOFF_SCALE", "0.05");
        return ConfigLoader.load(vars, Optional.empty()).config();
    }

    private static String at(long t0) {
        return String.format("[%5.1fs]", (System.nanoTime() - t0) / 1e9);
    }

    private static boolean awaitDrained(List<NatsTarget> targets, Duration atMost) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (System.nanoTime() < deadline) {
            if (targets.stream().allMatch(t -> t.queueLength() == 0)) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    private static int report(PrintWriter out, DemoBurst burst, DemoStream.Tally tally, List<NatsTarget> targets,
                              boolean drained) {
        long missing = burst.acknowledged.stream().filter(id -> !tally.perEvent().containsKey(id)).count();
        long queued = targets.stream().mapToLong(NatsTarget::queueLength).sum();
        long failed = targets.stream().mapToLong(t -> t.failedStore().map(FailedEventStore::count).orElse(0)).sum();
        out.println();
        row(out, "events sent (acknowledged 200)", burst.acknowledged.size());
        row(out, "events in stream", tally.messages());
        row(out, "distinct Nats-Msg-Ids", tally.distinctMsgIds());
        row(out, "duplicates", tally.duplicates());
        row(out, "missing", missing);
        row(out, "queue length", queued);
        row(out, "failed-store length", failed);
        row(out, "requests retried by the sender", burst.retried.get());
        boolean ok = drained && missing == 0 && tally.duplicates() == 0 && queued == 0 && failed == 0
            && tally.messages() == burst.acknowledged.size() && tally.distinctMsgIds() == tally.messages();
        out.println();
        String counts = " (lost " + missing + ", duplicates stored " + tally.duplicates() + ")";
        out.println(ok ? "PASS: every acknowledged event is in the stream exactly once" + counts
            : "FAIL: events were lost, duplicated or left undelivered" + counts);
        out.flush();
        return ok ? ExitCode.OK : ExitCode.FAILURE;
    }

    private static void row(PrintWriter out, String name, long value) {
        out.printf("  %-32s %8d%n", name, value);
    }

    private static void deleteTree(Path root) {
        try (var paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException e) {
            // best effort: a temp dir left behind is harmless
        }
    }
}

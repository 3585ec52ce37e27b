package dev.jetsink.server.testing;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.testkit.NatsCluster;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The stage of one fault scenario: a real nats-server holding the stream, and the daemon
 * as a child {@code serve} process with one JetStream notify target (and optionally one audit
 * target) whose queue lives under {@link #queueRoot}. The daemon can be killed and restarted; each
 * start binds a new ephemeral port, which {@link #base()} follows, so a load generator keeps
 * working across restarts. Backoff sleeps are scaled down ({@code JETSINK_BACKOFF_SCALE}) so no
 * scenario waits out a 32 s retry.
 */
public final class FaultRig implements AutoCloseable {

    public static final String STREAM = "FAULTS";
    public static final String SUBJECT = "rustfs.faults";
    /** {@code bin/test --soak} passes {@code -Djetsink.soak=true}: run the full counts. */
    static final boolean SOAK = Boolean.getBoolean("jetsink.soak");
    public static final Duration START = Duration.ofSeconds(60);
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*})?\\s+(\\S+)$");

    public final NatsServer nats;
    /** The 3-node cluster of {@link #clusterNotifyOnly()}; then {@link #nats} is its first node. */
    public final Optional<NatsCluster> cluster;
    /** What the daemon and the admin connection are given: one URL, or the cluster's comma-separated ones. */
    final String natsUrls;
    public final Path queueRoot;
    public final Map<String, String> env = new HashMap<>();
    private final boolean ownsQueueRoot;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicReference<URI> base = new AtomicReference<>(URI.create("http://127.0.0.1:1"));
    private final List<String> pastLogs = new ArrayList<>();
    private Optional<ServeProcess> daemon = Optional.empty();
    private Connection admin;
    private final StreamSpec streamSpec;

    private FaultRig(Path queueRoot, boolean ownsQueueRoot, Set<TargetKind> kinds) throws IOException, InterruptedException {
        this(Optional.empty(), queueRoot, ownsQueueRoot, kinds,
            StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofMinutes(5)).build());
    }

    private FaultRig(Optional<NatsCluster> cluster, Path queueRoot, boolean ownsQueueRoot, Set<TargetKind> kinds,
                     StreamSpec stream) throws IOException, InterruptedException {
        this.cluster = cluster;
        this.nats = cluster.map(c -> c.node(0)).orElseGet(() -> NatsServer.builder().build().start());
        this.natsUrls = cluster.map(NatsCluster::urls).orElseGet(nats::url);
        this.queueRoot = queueRoot;
        this.ownsQueueRoot = ownsQueueRoot;
        env.put("JETSINK_HTTP_ADDRESS", "127.0.0.1:0");
        env.put("JETSINK_BACKOFF_SCALE", "0.01");
        for (TargetKind kind : kinds) {
            String p = kind.envPrefix();
            env.put(p + "ENABLE", "on");
            env.put(p + "ADDRESS", natsUrls);
            env.put(p + "SUBJECT", SUBJECT);
            env.put(p + "JETSTREAM_ENABLE", "on");
            env.put(p + "JETSTREAM_STREAM_NAME", STREAM);
            env.put(p + "JETSTREAM_ACK_TIMEOUT_SECS", "10");
            env.put(p + "QUEUE_DIR", queueRoot.toString());
        }
        this.streamSpec = stream;
        createStream();
    }

    /** Creates the scenario's stream (again, after a scenario deleted it): always the same config. */
    public void createStream() throws IOException, InterruptedException {
        Streams.create(admin(), streamSpec);
    }

    /**
     * Deletes the scenario's stream and creates it again, empty and with a fresh duplicate window,
     * for tests that share one daemon. Call it while the daemon is idle (its queues empty): a
     * target that publishes nothing between the two calls never notices.
     */
    public void recreateStream() throws IOException, InterruptedException {
        Streams.delete(admin(), STREAM);
        createStream();
    }

    /** A rig with one notify target and a fresh temporary queue root. */
    public static FaultRig notifyOnly() throws IOException, InterruptedException {
        return new FaultRig(Files.createTempDirectory("jetsink-faults"), true, Set.of(TargetKind.NOTIFY));
    }

    /** A rig with a notify and an audit target, both with their queues under a fresh root. */
    public static FaultRig notifyAndAudit() throws IOException, InterruptedException {
        return new FaultRig(Files.createTempDirectory("jetsink-faults"), true, Set.of(TargetKind.NOTIFY, TargetKind.AUDIT));
    }

    /** A rig with one notify target queueing under {@code queueRoot}, which the caller owns. */
    public static FaultRig notifyQueueIn(Path queueRoot) throws IOException, InterruptedException {
        return new FaultRig(queueRoot, false, Set.of(TargetKind.NOTIFY));
    }

    /**
     * A rig on a fresh 3-node cluster (the cluster scenario): one notify target whose address
     * lists every node, and the stream replicated on all three with a {@code duplicateWindow}
     * dedup window. The rig closes the cluster.
     */
    public static FaultRig clusterNotifyOnly(Duration duplicateWindow) throws IOException, InterruptedException {
        return clusterNotifyOnly(duplicateWindow, List.of());
    }

    /**
     * {@link #clusterNotifyOnly(Duration)} with {@code brokerArgs} appended to every node's command
     * line (e.g. {@code --no_advertise}, so that clients reach only the addresses they were given).
     */
    public static FaultRig clusterNotifyOnly(Duration duplicateWindow, List<String> brokerArgs) throws IOException, InterruptedException {
        NatsCluster started = NatsCluster.start(dev.jetsink.testkit.NatsBinary.locate(), brokerArgs);
        try {
            return new FaultRig(Optional.of(started), Files.createTempDirectory("jetsink-faults"), true,
                Set.of(TargetKind.NOTIFY), StreamSpec.of(STREAM, SUBJECT).replicas(NatsCluster.SIZE)
                    .duplicateWindow(duplicateWindow).build());
        } catch (IOException | InterruptedException | RuntimeException e) {
            started.close();
            throw e;
        }
    }

    /** {@code ci} normally, {@code soak} under {@code bin/test --soak}. */
    public static int count(int ci, int soak) {
        return SOAK ? soak : ci;
    }

    /**
     * SIGKILL of the broker, a short outage, and a restart on the same port and store. The port
     * lies in the kernel's ephemeral range, so while the broker is down any process's outgoing
     * connection may take it for a while; the restart is retried for up to 30 s.
     */
    public void crashBroker(Duration down) throws InterruptedException {
        nats.kill();
        Thread.sleep(down.toMillis());
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                nats.restart();
                return;
            } catch (IllegalStateException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                System.out.println("broker restart on port " + nats.port() + " failed, retrying: "
                    + e.getMessage().lines().findFirst().orElse(""));
            }
        }
    }

    /**
     * Restarts cluster node {@code i} (0-based) on its ports and store, retried for up to 30 s for
     * the same reason as {@link #crashBroker}: a port of the dead node may be briefly taken.
     */
    public void restartNode(int i) throws InterruptedException {
        NatsCluster c = cluster.orElseThrow(() -> new IllegalStateException("not a cluster rig"));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                c.restart(i);
                return;
            } catch (IllegalStateException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                System.out.println("restart of node " + NatsCluster.nodeName(i) + " failed, retrying: "
                    + e.getMessage().lines().findFirst().orElse(""));
                Thread.sleep(200);
            }
        }
    }

    /**
     * The random seed of a scenario: {@code -Djetsink.crash.seed=} to replay one, else fresh. It is
     * printed, so a failing run names it (DESIGN.md "Fault suite").
     */
    public static long seed(String scenario) {
        long seed = Long.getLong("jetsink.crash.seed", System.nanoTime());
        System.out.println("fault-seed scenario=" + scenario + " seed=" + seed + " (replay with -Djetsink.crash.seed=" + seed + ")");
        return seed;
    }

    /**
     * When to strike {@code faults} times during {@code events} acknowledgements: evenly spread, each
     * point moved at random by up to a third of the spacing.
     */
    public static int[] faultPoints(java.util.Random random, int events, int faults) {
        int[] points = new int[faults];
        double spacing = (double) events / (faults + 1);
        for (int k = 0; k < faults; k++) {
            points[k] = (int) (spacing * (k + 1) + (random.nextDouble() - 0.5) * spacing * 2 / 3);
        }
        return points;
    }

    /** Starts {@code jetsink serve} and waits until it listens. */
    public FaultRig startDaemon() throws Exception {
        if (daemon.isPresent() && daemon.get().process.isAlive()) {
            throw new IllegalStateException("daemon already running");
        }
        ServeProcess serve = ServeProcess.start(env);
        daemon = Optional.of(serve);
        base.set(URI.create("http://127.0.0.1:" + serve.awaitPort(START)));
        return this;
    }

    /** For a daemon this rig did not start (e.g. one behind a {@link SocketSupervisor}): where it answers. */
    public FaultRig daemonAt(URI daemon) {
        base.set(daemon);
        return this;
    }

    /** SIGKILL of the daemon: no shutdown hook, no flush, a crash. */
    public void killDaemon() throws InterruptedException {
        ServeProcess serve = daemon.orElseThrow();
        serve.kill(Duration.ofSeconds(30));
        pastLogs.add(serve.log());
    }

    /** SIGTERM of the daemon; returns its exit code. */
    public int stopDaemon() throws Exception {
        ServeProcess serve = daemon.orElseThrow();
        int code = serve.terminate(Duration.ofSeconds(30));
        pastLogs.add(serve.log());
        return code;
    }

    /** Sends {@code signal} (e.g. {@code STOP}, {@code CONT}) to the running daemon. */
    public void signalDaemon(String signal) throws IOException, InterruptedException {
        long pid = daemon.orElseThrow().process.pid();
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
        }
    }

    public boolean daemonAlive() {
        return daemon.map(d -> d.process.isAlive()).orElse(false);
    }

    /** Everything every daemon of this rig logged so far, oldest first. */
    public String daemonLog() {
        List<String> all = new ArrayList<>(pastLogs);
        daemon.filter(d -> d.process.isAlive()).ifPresent(d -> all.add(d.log()));
        return String.join("\n--- restart ---\n", all);
    }

    /** How often {@code text} occurs in {@link #daemonLog()}. */
    public int logCount(String text) {
        return daemonLog().split(java.util.regex.Pattern.quote(text), -1).length - 1;
    }

    /** Waits until the daemon has made {@code connections} NATS connections, first ones and reconnections. */
    public void awaitNatsConnections(int connections, Duration atMost) {
        Awaitility.await().atMost(atMost).pollInterval(Duration.ofMillis(50)).until(() ->
            logCount("NATS connection connected") + logCount("NATS connection reconnected") >= connections);
    }

    /** The running daemon's base URI; follows restarts. */
    public URI base() {
        return base.get();
    }

    public HttpClient http() {
        return http;
    }

    /** The notify target's queue directory ({@code <queue_dir>/notify-nats-_}). */
    public Path notifyQueue() {
        return queueRoot.resolve("notify-nats-_");
    }

    public HttpResponse<String> post(String path, String contentType, byte[] body) throws IOException, InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(base().resolve(path)).timeout(Duration.ofSeconds(30))
            .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return http.send(req, HttpResponse.BodyHandlers.ofString());
    }

    /** Sum of every sample of metric {@code name} on the running daemon's {@code /metrics}. */
    public double metric(String name) throws IOException, InterruptedException {
        return metric(base(), name);
    }

    /** Sum of every sample of metric {@code name} on the daemon at {@code base} (one not run by this rig too). */
    public double metric(URI base, String name) throws IOException, InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(base.resolve("/metrics")).timeout(Duration.ofSeconds(30)).GET().build();
        String text = http.send(req, HttpResponse.BodyHandlers.ofString()).body();
        // name{k="v",...}: the series of that name carrying every given label (in any order)
        int brace = name.indexOf('{');
        String series = brace < 0 ? name : name.substring(0, brace);
        List<String> labels = brace < 0 ? List.of()
            : List.of(name.substring(brace + 1, name.length() - 1).split(","));
        double sum = 0;
        for (String line : text.split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (m.matches() && m.group(1).equals(series)
                && labels.stream().allMatch(l -> m.group(2) != null && m.group(2).contains(l))) {
                sum += Double.parseDouble(m.group(3));
            }
        }
        return sum;
    }

    public double notifyQueueLength() throws IOException, InterruptedException {
        return metric(TargetKind.NOTIFY.queueLengthMetric());
    }

    /**
     * Waits until the notify queue is empty and the stream holds at least {@code messages}; returns
     * whether it happened in time (the audit then tells what is missing, so callers assert on it).
     */
    public boolean awaitDrained(long messages, Duration atMost) {
        try {
            Awaitility.await().atMost(atMost).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> notifyQueueLength() == 0 && streamCount() >= messages);
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }

    /** Classifies {@code acknowledged} against what the stream and the notify queue hold now. */
    public DeliveryAudit.Tally audit(String scenario, Set<Integer> acknowledged) throws IOException, InterruptedException {
        return audit(scenario, acknowledged, readStream());
    }

    /** Classifies {@code acknowledged} against {@code stored} (e.g. two streams' messages) and the notify queue. */
    public DeliveryAudit.Tally audit(String scenario, Set<Integer> acknowledged, List<StoredMessage> stored)
        throws IOException, InterruptedException {
        long failedMessages = (long) metric(TargetKind.NOTIFY.metricPrefix() + "failed_messages");
        return DeliveryAudit.of(scenario, acknowledged, stored, notifyQueue(), failedMessages).print();
    }

    public Connection admin() throws IOException, InterruptedException {
        if (admin == null) {
            admin = Nats.connect(new Options.Builder().server(natsUrls).maxReconnects(-1)
                .reconnectWait(Duration.ofMillis(100)).build());
        }
        return admin;
    }

    public long streamCount() throws IOException, InterruptedException {
        return Streams.state(admin(), STREAM).getMsgCount();
    }

    public List<StoredMessage> readStream() throws IOException, InterruptedException {
        return Streams.readAll(admin(), STREAM);
    }

    /**
     * Reads the stream once it has stopped growing: its last sequence unchanged for {@code quiet},
     * and still unchanged after the read. For a stream whose publishers are paused (SIGSTOP): what
     * they had already written to their sockets is stored by then, however slowly a loaded machine
     * lets the broker get to it, so the content read is final.
     *
     * @throws IllegalStateException if the stream keeps growing for {@code atMost}
     */
    public List<StoredMessage> readSettledStream(Duration quiet, Duration atMost) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        long lastSeq = Streams.state(admin(), STREAM).getLastSequence();
        long unchangedSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            Thread.sleep(50);
            long seq = Streams.state(admin(), STREAM).getLastSequence();
            if (seq != lastSeq) {
                lastSeq = seq;
                unchangedSince = System.nanoTime();
            } else if (System.nanoTime() - unchangedSince >= quiet.toNanos()) {
                List<StoredMessage> content = readStream();
                if (Streams.state(admin(), STREAM).getLastSequence() == lastSeq) {
                    return content;
                }
            }
        }
        throw new IllegalStateException("stream " + STREAM + " still growing after " + atMost
            + " (last sequence " + lastSeq + ")");
    }

    /**
     * Kills the daemon and closes everything. An interrupt while waiting is kept in the thread's
     * flag; if it cut the wait for the daemon's exit short, the queue root stays, as the daemon may
     * still hold files under it.
     */
    @Override
    public void close() throws IOException {
        boolean interrupted = false;
        boolean exited = true;
        if (daemonAlive()) {
            // wait for the exit, so nothing holds files under the queue root when it is removed
            try {
                daemon.get().kill(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                interrupted = true;
                exited = false;
            }
        }
        if (admin != null) {
            try {
                admin.close();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        nats.close();
        cluster.ifPresent(NatsCluster::close);
        if (ownsQueueRoot && exited) {
            DaemonHarness.deleteTree(queueRoot);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}

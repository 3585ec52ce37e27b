package dev.jetsink.server.chaos;

import dev.jetsink.OrderMode;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.Tmpfs;
import dev.jetsink.testkit.FaultProxy;
import dev.jetsink.testkit.NatsCluster;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;

/**
 * The system under faults: a 3-node cluster holding the R3 stream, two daemons each reaching every
 * node through a proxy of its own (so a network fault hits one daemon), and a Core subscriber
 * that records what reaches the Core subject. Daemon a sends notify and audit into the stream;
 * daemon b notify into the stream and audit over Core. Every target into the stream keeps the
 * campaign's {@code ORDER} ({@link OrderMode}); the Core one keeps the default.
 */
final class Stage implements AutoCloseable {

    static final String STREAM = "CHAOS";
    static final String SUBJECT = "chaos.js";
    static final String CORE_SUBJECT = "chaos.core";
    /** Ordered notify targets' subject: one per object of the senders' two-segment keys (fewer than 3). */
    static final String OBJECT_SUBJECT = SUBJECT + ".{bucket}.{key_prefix:3}";
    /** Room for a 30-minute run's queue (segments roll at 64 MiB); filled by the disk-full fault. */
    private static final String DISK_SIZE = "256m";

    final NatsCluster cluster;
    final Connection admin;
    final Path root;
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    /** {@code proxies.get(daemon).get(node)}. */
    final List<List<FaultProxy>> proxies = new ArrayList<>();
    final List<DaemonSlot> daemons = new ArrayList<>();
    /** Each daemon's queue disk, a tmpfs the disk faults fill and remount. */
    final List<Tmpfs> disks = new ArrayList<>();
    /** Bodies seen on the Core subject, in arrival order. */
    final ConcurrentLinkedQueue<byte[]> coreSeen = new ConcurrentLinkedQueue<>();

    private Stage(NatsCluster cluster, Connection admin, Path root) {
        this.cluster = cluster;
        this.admin = admin;
        this.root = root;
    }

    static Stage start(OrderMode order) throws Exception {
        NatsCluster cluster = NatsCluster.start();
        Stage stage = null;
        try {
            Connection admin = Nats.connect(new Options.Builder().servers(cluster.urlArray()).maxReconnects(-1)
                .reconnectWait(Duration.ofMillis(100)).pingInterval(Duration.ofSeconds(1)).maxPingsOut(3).build());
            Streams.create(admin, StreamSpec.of(STREAM, SUBJECT, SUBJECT + ".>").replicas(NatsCluster.SIZE)
                .duplicateWindow(Duration.ofMinutes(10)).build());
            stage = new Stage(cluster, admin, Files.createTempDirectory("jetsink-chaos"));
            Stage self = stage;
            Dispatcher core = admin.createDispatcher(m -> self.coreSeen.add(m.getData()));
            core.subscribe(CORE_SUBJECT);
            admin.flush(Duration.ofSeconds(5));
            for (int d = 0; d < Schedule.DAEMONS; d++) {
                List<FaultProxy> own = new ArrayList<>();
                for (int n = 0; n < NatsCluster.SIZE; n++) {
                    own.add(FaultProxy.in(cluster.node(n)));
                }
                stage.proxies.add(own);
                String name = Schedule.daemonName(d);
                Tmpfs disk = Tmpfs.mount(DISK_SIZE);
                stage.disks.add(disk);
                Path queues = disk.dir;
                String urls = own.stream().map(FaultProxy::url).collect(Collectors.joining(","));
                stage.daemons.add(new DaemonSlot(name, queues, env(urls, queues, d == 1, order), stage.http));
            }
            return stage;
        } catch (Exception | Error e) {
            if (stage != null) {
                stage.close();
            } else {
                cluster.close();
            }
            throw e;
        }
    }

    /**
     * A daemon's environment: notify into the stream; audit into the stream, or over Core for daemon
     * b; the targets into the stream with {@code ORDER=order}, ordered notify ones on
     * {@link #OBJECT_SUBJECT}.
     */
    private static Map<String, String> env(String urls, Path queues, boolean auditOverCore, OrderMode order) {
        Map<String, String> env = new HashMap<>();
        env.put("JETSINK_HTTP_ADDRESS", "127.0.0.1:0");
        env.put("JETSINK_BACKOFF_SCALE", "0.05");
        for (TargetKind kind : TargetKind.values()) {
            String p = kind.envPrefix();
            env.put(p + "ENABLE", "on");
            env.put(p + "ADDRESS", urls);
            env.put(p + "QUEUE_DIR", queues.toString());
            env.put(p + "JETSTREAM_ACK_TIMEOUT_SECS", "10");
            if (kind == TargetKind.AUDIT && auditOverCore) {
                env.put(p + "SUBJECT", CORE_SUBJECT);
            } else {
                // ordered notify targets publish on a subject per object, so the stream checks each one's last message
                env.put(p + "SUBJECT", kind == TargetKind.NOTIFY && order == OrderMode.KEY ? OBJECT_SUBJECT : SUBJECT);
                env.put(p + "JETSTREAM_ENABLE", "on");
                env.put(p + "JETSTREAM_STREAM_NAME", STREAM);
                env.put(p + "ORDER", order.label());
            }
        }
        return env;
    }

    /** Where failed stores can be: the sink's root and each daemon's queue disk. */
    List<Path> queueRoots() {
        List<Path> out = new ArrayList<>(List.of(root));
        disks.forEach(d -> out.add(d.dir));
        return out;
    }

    NatsServer node(int i) {
        return cluster.node(i);
    }

    /** Restarts node {@code i}, retried for up to 30 s (a port of the dead node may be briefly taken). */
    void restartNode(int i) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                cluster.restart(i);
                return;
            } catch (IllegalStateException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    /**
     * Undoes every fault: proxies pass, every node runs and is continued, every daemon runs.
     * Returns what it found down: after the nemesis healed its own faults, nothing should be.
     */
    List<String> healAll(History history) throws Exception {
        List<String> foundDown = new ArrayList<>();
        proxies.forEach(own -> own.forEach(FaultProxy::pass));
        for (Tmpfs disk : disks) {
            disk.readOnly(false);
            try (var files = Files.list(disk.dir)) {
                for (Path f : files.filter(f -> f.getFileName().toString().startsWith("ballast-")).toList()) {
                    foundDown.add("ballast " + f);
                    Files.delete(f);
                }
            }
        }
        for (int i = 0; i < NatsCluster.SIZE; i++) {
            if (!node(i).isAlive()) {
                foundDown.add("node n" + (i + 1));
                history.say("heal: node n" + (i + 1) + " was down, restarting");
                restartNode(i);
            }
            node(i).resume();
        }
        for (DaemonSlot d : daemons) {
            if (!d.alive()) {
                foundDown.add("daemon " + d.name);
                history.say("heal: daemon " + d.name + " was down, starting");
                d.start();
            }
        }
        awaitStreamCurrent(Duration.ofSeconds(120));
        return foundDown;
    }

    /** Waits until the stream has a leader and current replicas, repeating the fixture's 30 s wait. */
    void awaitStreamCurrent(Duration atMost) {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (true) {
            try {
                cluster.awaitStreamCurrent(STREAM);
                return;
            } catch (IllegalStateException slow) {
                if (System.nanoTime() > deadline) {
                    throw slow;
                }
            }
        }
    }

    /**
     * The stream's messages once it has stopped growing ({@code quiet} without a new sequence and
     * still unchanged after the read).
     */
    List<StoredMessage> readSettled(Duration quiet, Duration atMost, History history) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        long last = Streams.state(admin, STREAM).getLastSequence();
        long since = System.nanoTime();
        while (System.nanoTime() < deadline) {
            Thread.sleep(200);
            long seq = Streams.state(admin, STREAM).getLastSequence();
            if (seq != last) {
                last = seq;
                since = System.nanoTime();
            } else if (System.nanoTime() - since >= quiet.toNanos()) {
                List<StoredMessage> all;
                try {
                    // per sequence from the leader: an ordered consumer may be served by a
                    // follower, and once stopped 8 messages short on a diverged replica
                    all = Streams.readFromLeader(admin, STREAM);
                } catch (IllegalStateException failed) {
                    history.say("stream read failed, reading again: " + failed.getMessage());
                    awaitStreamCurrent(Duration.ofSeconds(60));
                    since = System.nanoTime();
                    continue;
                }
                if (Streams.state(admin, STREAM).getLastSequence() == last) {
                    return all;
                }
            }
        }
        throw new IllegalStateException("stream " + STREAM + " still growing after " + atMost);
    }

    /** The stream as each node holds it, read while that node leads (keyed by node index). */
    Map<Integer, List<StoredMessage>> readEachReplica() {
        return cluster.readEachReplica(STREAM);
    }

    /** Copies each broker's log next to the history (the stage's directory is deleted at close). */
    void keepBrokerLogs(Path dir, long seed) {
        for (int i = 0; i < 3; i++) {
            Path target = dir.resolve("nats-n" + (i + 1) + "-" + seed + ".log");
            try {
                Files.copy(node(i).logFile(), target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                System.out.println("chaos broker log kept: " + target.toAbsolutePath());
            } catch (IOException e) {
                System.out.println("chaos broker log of n" + (i + 1) + " not kept: " + e);
            }
        }
    }

    /** Closes everything; an interrupt while closing the admin connection is kept in the thread's flag. */
    @Override
    public void close() throws IOException {
        daemons.forEach(DaemonSlot::close);
        proxies.forEach(own -> own.forEach(FaultProxy::close));
        boolean interrupted = false;
        try {
            admin.close();
        } catch (InterruptedException e) {
            interrupted = true;
        }
        cluster.close();
        for (Tmpfs disk : disks) {
            disk.close();
        }
        dev.jetsink.server.testing.DaemonHarness.deleteTree(root);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}

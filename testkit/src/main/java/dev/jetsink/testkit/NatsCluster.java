package dev.jetsink.testkit;

import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.api.ClusterInfo;
import io.nats.client.api.StorageType;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Three routed JetStream nodes on 127.0.0.1 — named {@code n1}, {@code n2}, {@code n3}, at
 * indexes 0, 1, 2 — for R3 streams. Client ports are picked by the servers; cluster
 * ports must be known before any node starts, so they are probed free and the whole start is
 * retried if one was taken meanwhile.
 *
 * <pre>{@code
 * try (NatsCluster cluster = NatsCluster.start()) {
 *     Connection c = Nats.connect(new Options.Builder().servers(cluster.urlArray()).build());
 * }
 * }</pre>
 */
public final class NatsCluster implements AutoCloseable {

    /** Number of nodes. */
    public static final int SIZE = 3;
    /** The {@code --cluster_name}. */
    public static final String CLUSTER_NAME = "jetsink";

    private static final int START_ATTEMPTS = 3;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(45);
    private static final String PROBE_STREAM = "JETSINK_CLUSTER_PROBE";

    private final List<NatsServer> nodes;

    private NatsCluster(List<NatsServer> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /** Starts three nodes with the located binary and waits until {@link #awaitReady()}. */
    public static NatsCluster start() {
        return start(NatsBinary.locate());
    }

    /** Starts three nodes of this binary and waits until {@link #awaitReady()}. */
    public static NatsCluster start(Path binary) {
        return start(binary, List.of());
    }

    /**
     * Starts three nodes of this binary, each with {@code extraArgs} appended (such as {@code -D}
     * for debug logging), and waits until {@link #awaitReady()}.
     */
    public static NatsCluster start(Path binary, List<String> extraArgs) {
        IllegalStateException last = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            List<NatsServer> started = new ArrayList<>();
            try {
                int[] clusterPorts = freePorts(SIZE);
                for (int i = 0; i < SIZE; i++) {
                    started.add(NatsServer.builder().binary(binary)
                            .args(nodeArgs(i, clusterPorts))
                            .args(extraArgs.toArray(String[]::new)).build().start());
                }
                NatsCluster cluster = new NatsCluster(started);
                cluster.awaitReady();
                return cluster;
            } catch (IllegalStateException e) {
                // Most likely a cluster port taken between probing and binding: start afresh.
                last = e;
                started.forEach(NatsServer::close);
            }
        }
        throw last;
    }

    /** The server name of node {@code i} ({@code n1} for index 0). */
    public static String nodeName(int i) {
        return "n" + (i + 1);
    }

    /** Node {@code i} (0-based). */
    public NatsServer node(int i) {
        return nodes.get(i);
    }

    /** Client URLs of all nodes, dead or alive, in node order. */
    public List<String> urlList() {
        return nodes.stream().map(NatsServer::url).collect(Collectors.toList());
    }

    /** Client URLs, comma-separated, as jnats {@code Options.Builder.server(String)} accepts. */
    public String urls() {
        return String.join(",", urlList());
    }

    /** Client URLs as an array for {@code Options.Builder.servers(String[])}. */
    public String[] urlArray() {
        return urlList().toArray(String[]::new);
    }

    /** SIGKILLs node {@code i}. */
    public void kill(int i) {
        nodes.get(i).kill();
    }

    /**
     * Starts node {@code i} again on its ports and store dir (killing it first if alive). It
     * rejoins the cluster shortly after; call {@link #awaitReady()} to wait for that.
     */
    public void restart(int i) {
        nodes.get(i).restart();
    }

    /**
     * The index of the node leading {@code stream}'s raft group; waits for an election in
     * progress to finish.
     */
    public int streamLeader(String stream) {
        return retry("leader of stream " + stream, Duration.ofSeconds(20), jsm -> {
            ClusterInfo info = jsm.getStreamInfo(stream).getClusterInfo();
            String leader = info == null ? null : info.getLeader();
            return Optional.ofNullable(leader).map(this::indexOf);
        });
    }

    /**
     * Waits until {@code stream} has a leader and every other replica is online and current.
     * Call it after {@link #restart(int)} before reading a stream: until the restarted replica
     * has caught up (about 2 s here), nats-server 2.9 lets it answer stream info itself, with
     * no leader and its stale message count.
     */
    public void awaitStreamCurrent(String stream) {
        retry("all replicas of stream " + stream + " current", Duration.ofSeconds(30), jsm -> {
            ClusterInfo info = jsm.getStreamInfo(stream).getClusterInfo();
            boolean current = info != null && info.getLeader() != null
                    && info.getReplicas() != null
                    && info.getReplicas().size() == SIZE - 1
                    && info.getReplicas().stream().allMatch(r -> r.isCurrent() && !r.isOffline());
            return current ? Optional.of(true) : Optional.empty();
        });
    }

    /**
     * Waits until JetStream answers: a meta leader is elected and, when every node is alive, an
     * R3 stream can be placed (so all peers are known). Throws with the nodes' log tails if that
     * takes longer than 45 s.
     */
    public void awaitReady() {
        boolean allAlive = nodes.stream().allMatch(NatsServer::isAlive);
        retry("JetStream ready", READY_TIMEOUT, jsm -> {
            jsm.getAccountStatistics();
            if (allAlive) {
                jsm.addStream(StreamSpec.of(PROBE_STREAM, "_jetsink.cluster.probe")
                        .storage(StorageType.Memory).replicas(SIZE).build().toConfiguration());
                jsm.deleteStream(PROBE_STREAM);
            }
            return Optional.of(true);
        });
    }

    /**
     * What each node holds of {@code stream}: read with {@link Streams#readFromLeader} while that
     * node leads, stepping the leadership down until every node has led once (at most 12 step-downs).
     * On a healthy cluster the views are equal; nats-server 2.9.10's replicas diverge after a paused
     * leader. Keyed by node index; a node that never became leader is absent.
     */
    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    public Map<Integer, List<StoredMessage>> readEachReplica(String stream) {
        Map<Integer, List<StoredMessage>> views = new TreeMap<>();
        try (Connection conn = connectToLiveNodes()) {
            for (int stepDowns = 0; ; stepDowns++) {
                awaitStreamCurrent(stream);
                int leader = streamLeader(stream);
                views.computeIfAbsent(leader, i -> Streams.readFromLeader(conn, stream));
                if (views.size() == SIZE || stepDowns == 12) {
                    return views;
                }
                try {
                    conn.request("$JS.API.STREAM.LEADER.STEPDOWN." + stream, new byte[0], Duration.ofSeconds(5));
                } catch (RuntimeException e) {
                    // the next round looks at whoever leads then
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot connect to read the replicas of " + stream + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted reading the replicas of " + stream, e);
        }
    }

    /** Kills every node and removes their temporary dirs. */
    @Override
    public void close() {
        nodes.forEach(NatsServer::close);
    }

    @Override
    public String toString() {
        return "NatsCluster[" + urls() + "]";
    }

    private int indexOf(String serverName) {
        return IntStream.range(0, SIZE).filter(i -> nodeName(i).equals(serverName)).findFirst()
                .orElseThrow(() -> new IllegalStateException("unknown server " + serverName));
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    private <T> T retry(String what, Duration timeout, JsmCall<T> call) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String lastError = "no attempt";
        while (System.nanoTime() < deadline) {
            try (Connection conn = connectToLiveNodes()) {
                Optional<T> result = call.run(conn.jetStreamManagement());
                if (result.isPresent()) {
                    return result.get();
                }
                lastError = "no answer yet";
            } catch (IOException | JetStreamApiException | RuntimeException e) {
                lastError = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for " + what, e);
            }
            sleep(200);
        }
        throw new IllegalStateException("cluster: " + what + " not reached within " + timeout
                + " (last: " + lastError + ")\n" + logTails());
    }

    private Connection connectToLiveNodes() throws IOException, InterruptedException {
        String[] live = nodes.stream().filter(NatsServer::isAlive).map(NatsServer::url)
                .toArray(String[]::new);
        if (live.length == 0) {
            throw new IllegalStateException("no node is running");
        }
        return Nats.connect(new Options.Builder().servers(live).noReconnect()
                .connectionTimeout(Duration.ofSeconds(2)).build());
    }

    private String logTails() {
        return nodes.stream().map(n -> n.logTail(15)).collect(Collectors.joining("\n"));
    }

    private static String[] nodeArgs(int i, int[] clusterPorts) {
        String routes = IntStream.range(0, SIZE).filter(j -> j != i)
                .mapToObj(j -> "nats://127.0.0.1:" + clusterPorts[j])
                .collect(Collectors.joining(","));
        return new String[] {
            "--cluster", "nats://127.0.0.1:" + clusterPorts[i],
            "--routes", routes,
            "--cluster_name", CLUSTER_NAME,
            "-n", nodeName(i)
        };
    }

    /** Distinct free ports: all sockets are held open together so none is handed out twice. */
    private static int[] freePorts(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                sockets.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
            }
            return sockets.stream().mapToInt(ServerSocket::getLocalPort).toArray();
        } catch (IOException e) {
            throw new IllegalStateException("cannot find free ports", e);
        } finally {
            for (ServerSocket s : sockets) {
                try {
                    s.close();
                } catch (IOException e) {
                    // Closing a probe socket cannot fail in a way that matters.
                }
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @FunctionalInterface
    private interface JsmCall<T> {
        Optional<T> run(JetStreamManagement jsm) throws IOException, JetStreamApiException;
    }
}

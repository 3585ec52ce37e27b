package dev.jetsink.server.testing;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.testkit.FaultProxy;
import dev.jetsink.testkit.NatsCluster;
import dev.jetsink.testkit.Nginx;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;

/**
 * Two daemons, each with its own queue, behind nginx as the senders' single address, in front of a
 * 3-node cluster holding an R3 stream (the rig's). nginx sends a request that failed on one daemon
 * (connection refused or reset, no answer within 2 s, a 503) to the other, POSTs included
 * ({@code proxy_next_upstream ... non_idempotent}): the setup OPERATIONS.md section 16 describes.
 * Daemon a is the rig's, restarts on the same port and reaches the brokers through one fault
 * proxy per node (the brokers run with {@code --no_advertise}, so it cannot go around them);
 * daemon b runs beside it and reaches every node directly.
 */
public final class BalancedPair implements AutoCloseable {
    public final FaultRig rig;
    final Path queueB;
    final ServeProcess daemonB;
    final URI baseB;
    public final Nginx nginx;
    /** Daemon a's only ways to the brokers, one proxy per node: a test cuts a off while b delivers. */
    public final List<FaultProxy> brokerLinksA;

    private BalancedPair(FaultRig rig, Path queueB, ServeProcess daemonB, URI baseB, Nginx nginx, List<FaultProxy> brokerLinksA) {
        this.brokerLinksA = brokerLinksA;
        this.rig = rig;
        this.queueB = queueB;
        this.daemonB = daemonB;
        this.baseB = baseB;
        this.nginx = nginx;
    }

    public static BalancedPair start(Duration duplicateWindow, Map<String, String> extraEnv) throws Exception {
        // no_advertise: a client reaches only the addresses it was given, so proxies can cut it off
        FaultRig rig = FaultRig.clusterNotifyOnly(duplicateWindow, List.of("--no_advertise"));
        rig.env.putAll(extraEnv);
        List<FaultProxy> brokerLinksA = new ArrayList<>();
        for (int i = 0; i < NatsCluster.SIZE; i++) {
            brokerLinksA.add(FaultProxy.in(rig.cluster.orElseThrow().node(i)));
        }
        Path queueB = Files.createTempDirectory("jetsink-active-b");
        ServeProcess daemonB = null;
        try {
            // daemon a restarts on the same port, so the balancer's upstream stays right
            int portA = freePort();
            Map<String, String> envB = new HashMap<>(rig.env);
            rig.env.put("JETSINK_HTTP_ADDRESS", "127.0.0.1:" + portA);
            rig.env.put(TargetKind.NOTIFY.envPrefix() + "ADDRESS",
                String.join(",", brokerLinksA.stream().map(FaultProxy::url).toList()));
            rig.startDaemon();
            envB.put("JETSINK_HTTP_ADDRESS", "127.0.0.1:0");
            envB.put(TargetKind.NOTIFY.envPrefix() + "QUEUE_DIR", queueB.toString());
            daemonB = ServeProcess.start(envB);
            int portB = daemonB.awaitPort(FaultRig.START);
            Nginx nginx = Nginx.start(Nginx.binary(), queueB.resolveSibling(queueB.getFileName() + "-nginx"),
                upstream(portA, portB), location());
            return new BalancedPair(rig, queueB, daemonB, URI.create("http://127.0.0.1:" + portB), nginx, brokerLinksA);
        } catch (Exception | Error e) {
            if (daemonB != null) {
                daemonB.kill(Duration.ofSeconds(30));
            }
            brokerLinksA.forEach(FaultProxy::close);
            rig.close();
            DaemonHarness.deleteTree(queueB);
            throw e;
        }
    }

    /** What the senders dial: the balancer. */
    public URI balancer() {
        return URI.create("http://127.0.0.1:" + nginx.port());
    }

    /** Waits until both queues are empty and the stream is settled, then audits the senders' acknowledged events. */
    public DeliveryAudit.Tally audit(String scenario, EventLoad load) throws Exception {
        try {
            Awaitility.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .until(() -> rig.notifyQueueLength() == 0 && rig.metric(baseB, TargetKind.NOTIFY.queueLengthMetric()) == 0);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("queues not drained: a=" + quietly(() -> rig.notifyQueueLength()) + " b="
                + quietly(() -> rig.metric(baseB, TargetKind.NOTIFY.queueLengthMetric())) + " stream="
                + quietly(() -> (double) rig.streamCount()) + "\n" + rig.daemonLog() + "\n" + daemonB.log(), e);
        }
        return rig.audit(scenario + " retried_by_balancer=" + retries(), load.acknowledged(),
            rig.readSettledStream(Duration.ofSeconds(2), Duration.ofSeconds(60)));
    }

    private static String quietly(java.util.concurrent.Callable<Double> read) {
        try {
            return String.valueOf(read.call());
        } catch (Exception e) {
            return e.toString();
        }
    }

    private long retries() {
        return nginx.errorLog().lines().filter(l -> l.contains("upstream")).count();
    }

    static String upstream(int portA, int portB) {
        return "  upstream jetsink {\n"
            + "    server 127.0.0.1:" + portA + " max_fails=1 fail_timeout=1s;\n"
            + "    server 127.0.0.1:" + portB + " max_fails=1 fail_timeout=1s;\n"
            + "    keepalive 16;\n"
            + "  }\n";
    }

    static String location() {
        return "    client_max_body_size 16m;\n"
            + "    location / {\n"
            + "      proxy_pass http://jetsink;\n"
            + "      proxy_http_version 1.1;\n"
            + "      proxy_set_header Connection \"\";\n"
            + "      proxy_next_upstream error timeout http_502 http_503 non_idempotent;\n"
            + "      proxy_next_upstream_tries 2;\n"
            + "      proxy_connect_timeout 1s;\n"
            + "      proxy_read_timeout 2s;\n"
            + "      proxy_send_timeout 2s;\n"
            + "    }\n";
    }

    /**
     * Stops the balancer, daemon b and the rig. An interrupt while waiting for b's exit is kept in
     * the thread's flag, after the rig is closed.
     */
    @Override
    public void close() throws IOException {
        try {
            nginx.close();
            boolean interrupted = false;
            try {
                daemonB.kill(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                interrupted = true;
            }
            rig.close();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        } finally {
            DaemonHarness.deleteTree(queueB);
            DaemonHarness.deleteTree(queueB.resolveSibling(queueB.getFileName() + "-nginx"));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}

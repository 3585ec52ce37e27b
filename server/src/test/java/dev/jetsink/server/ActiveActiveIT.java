package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.DaemonHarness;
import dev.jetsink.server.testing.DeliveryAudit;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import dev.jetsink.server.testing.ServeProcess;
import dev.jetsink.testkit.Nginx;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Active-active (OPERATIONS.md section 16): two daemons, each with its own queue, behind nginx as
 * the senders' single address, in front of a 3-node cluster holding an R3 stream. nginx sends a
 * request that failed on one daemon (connection refused or reset, no answer in time, a 503) to the
 * other, POSTs included ({@code proxy_next_upstream ... non_idempotent}); the senders re-send until
 * they get a 2xx, as MinIO and Ceph do.
 *
 * <p>A daemon killed mid-stream and started again on its queue delivers what it had queued, and
 * every event is in the stream once: an event both daemons took (the killed one wrote it, then died
 * before answering; nginx sent it to the other) carries the same content-derived msg id, and the
 * stream drops the second copy within its duplicate window. The second test shows where that
 * ends: a daemon frozen longer than the window, with requests nginx has meanwhile sent to the other
 * daemon, stores those a second time when it resumes — counted, never lost.
 */
class ActiveActiveIT {

    private static final int EVENTS = FaultRig.count(1_500, 10_000);
    private static final int RATE = 500;
    private static final int SENDERS = 8;

    @Test
    void aDaemonKilledBehindTheBalancerLosesNothingAndNothingIsStoredTwice() throws Exception {
        try (Pair pair = Pair.start(Duration.ofMinutes(2));
             EventLoad load = new EventLoad(pair::balancer, pair.rig.http(), 0, EVENTS, RATE).start(SENDERS)) {
            load.awaitAcknowledged(EVENTS / 3, Duration.ofSeconds(120));
            pair.rig.killDaemon();
            load.awaitAcknowledged(2 * EVENTS / 3, Duration.ofSeconds(120));
            pair.rig.startDaemon();
            load.awaitAll(Duration.ofSeconds(180));

            DeliveryAudit.Tally t = pair.audit("active-active kill", load);
            assertThat(t.lost()).as(t.line()).isZero();
            assertThat(t.duplicated()).as("an event both daemons took is stored once; " + t.line()).isZero();
            assertThat(t.inStreamOnce()).as(t.line()).isEqualTo(EVENTS);
            assertThat(t.messages()).as(t.line()).isEqualTo(EVENTS);
            assertThat(pair.nginx.errorLog()).as("nginx retried on the other daemon while one was down")
                .containsAnyOf("Connection refused", "reset by peer", "prematurely closed");
        }
    }

    @Test
    void aDaemonFrozenLongerThanTheDuplicateWindowStoresWhatTheOtherAlreadyStoredAgain() throws Exception {
        Duration window = Duration.ofSeconds(2);
        try (Pair pair = Pair.start(window);
             EventLoad load = new EventLoad(pair::balancer, pair.rig.http(), 0, EVENTS, RATE).start(SENDERS)) {
            load.awaitAcknowledged(EVENTS / 3, Duration.ofSeconds(120));
            pair.rig.signalDaemon("STOP");
            // nginx gives up on the frozen daemon after its read timeout and sends those requests to
            // the other; the frozen one still holds them in its socket buffers
            load.awaitAcknowledged(2 * EVENTS / 3, Duration.ofSeconds(120));
            Thread.sleep(window.multipliedBy(3).toMillis());
            pair.rig.signalDaemon("CONT");
            load.awaitAll(Duration.ofSeconds(180));

            DeliveryAudit.Tally t = pair.audit("active-active frozen past the window window_s=" + window.toSeconds(), load);
            assertThat(t.lost()).as(t.line()).isZero();
            assertThat(t.inStreamOnce() + t.duplicated()).as(t.line()).isEqualTo(EVENTS);
            assertThat(t.duplicated()).as("requests the frozen daemon held, stored again after the window; " + t.line())
                .isPositive();
            System.out.println("active-active duplicates past the window: " + t.duplicated() + " of " + EVENTS
                + " events, extra copies " + t.extraCopies());
        }
    }

    /** The stage: cluster and stream (the rig's), daemon a (the rig's), daemon b, nginx before both. */
    private static final class Pair implements AutoCloseable {
        final FaultRig rig;
        final Path queueB;
        final ServeProcess daemonB;
        final URI baseB;
        final Nginx nginx;

        private Pair(FaultRig rig, Path queueB, ServeProcess daemonB, URI baseB, Nginx nginx) {
            this.rig = rig;
            this.queueB = queueB;
            this.daemonB = daemonB;
            this.baseB = baseB;
            this.nginx = nginx;
        }

        static Pair start(Duration duplicateWindow) throws Exception {
            FaultRig rig = FaultRig.clusterNotifyOnly(duplicateWindow);
            Path queueB = Files.createTempDirectory("jetsink-active-b");
            ServeProcess daemonB = null;
            try {
                // daemon a restarts on the same port, so the balancer's upstream stays right
                int portA = freePort();
                rig.env.put("JETSINK_HTTP_ADDRESS", "127.0.0.1:" + portA);
                rig.startDaemon();
                Map<String, String> envB = new HashMap<>(rig.env);
                envB.put("JETSINK_HTTP_ADDRESS", "127.0.0.1:0");
                envB.put(TargetKind.NOTIFY.envPrefix() + "QUEUE_DIR", queueB.toString());
                daemonB = ServeProcess.start(envB);
                int portB = daemonB.awaitPort(FaultRig.START);
                Nginx nginx = Nginx.start(Nginx.binary(), queueB.resolveSibling(queueB.getFileName() + "-nginx"),
                    upstream(portA, portB), location());
                return new Pair(rig, queueB, daemonB, URI.create("http://127.0.0.1:" + portB), nginx);
            } catch (Exception | Error e) {
                if (daemonB != null) {
                    daemonB.kill(Duration.ofSeconds(30));
                }
                rig.close();
                DaemonHarness.deleteTree(queueB);
                throw e;
            }
        }

        /** What the senders dial: the balancer. */
        URI balancer() {
            return URI.create("http://127.0.0.1:" + nginx.port());
        }

        /** Waits until both queues are empty and the stream is settled, then audits the senders' acknowledged events. */
        DeliveryAudit.Tally audit(String scenario, EventLoad load) throws Exception {
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

        @Override
        public void close() throws Exception {
            try {
                nginx.close();
                daemonB.kill(Duration.ofSeconds(30));
                rig.close();
            } finally {
                DaemonHarness.deleteTree(queueB);
                DaemonHarness.deleteTree(queueB.resolveSibling(queueB.getFileName() + "-nginx"));
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}

package dev.jetsink.server.http;

import dev.jetsink.server.testing.DeliveryAudit;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.FaultRig;
import dev.jetsink.server.testing.SocketSupervisor;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Restarts that refuse no sender: the listening socket belongs to a parent process, as it does to
 * systemd with {@code jetsink.socket}, and the daemon is restarted with SIGTERM five times while
 * 16 senders post continuously. Connections that arrive during a restart wait in the socket's
 * backlog for the next daemon; requests on open connections are answered and the connection
 * closed. No connection is refused, every answer is 200, every event is in the stream once.
 */
class SocketHandoverIT {

    private static final int RESTARTS = 5;

    @Test
    void sigtermRestartsUnderAHeldSocketRefuseNoConnectionAndLoseNoEvent() throws Exception {
        int events = FaultRig.count(3_000, 20_000);
        int rate = FaultRig.count(300, 1_000);
        try (FaultRig rig = FaultRig.notifyOnly();
             SocketSupervisor supervisor = SocketSupervisor.start(rig.env);
             EventLoad load = new EventLoad(rig.daemonAt(supervisor.base())::base, rig.http(), events, rate).start(16)) {
            for (int r = 1; r <= RESTARTS; r++) {
                supervisor.awaitStart(r, FaultRig.START);
                load.awaitAcknowledged(events * r / (RESTARTS + 1), Duration.ofSeconds(180));
                assertThat(supervisor.terminateDaemon(Duration.ofSeconds(30)))
                    .as("a SIGTERM restart exits 0\n" + supervisor.log()).isZero();
            }
            supervisor.awaitStart(RESTARTS + 1, FaultRig.START);
            load.awaitAll(Duration.ofSeconds(180));
            boolean drained = rig.awaitDrained(events, Duration.ofSeconds(120));
            DeliveryAudit.Tally t = rig.audit("socket-handover restarts=" + RESTARTS + " longest_answer_ms="
                + load.longestAnswer().toMillis() + " refused_connections=" + load.connectionsRefused(),
                load.acknowledged());
            System.out.println("socket-handover restarts=" + RESTARTS + " events=" + events + " senders=16"
                + " longest_answer_ms=" + load.longestAnswer().toMillis() + " attempts=" + load.statuses());
            assertThat(load.connectionsRefused()).as("refused connections; " + t.line()).isZero();
            assertThat(load.statuses()).as("every attempt answered 200; " + t.line() + "\n" + supervisor.log())
                .containsOnlyKeys(200);
            assertThat(t.lost()).as(t.line()).isZero();
            assertThat(t.duplicated()).as(t.line()).isZero();
            assertThat(t.inStreamOnce()).as(t.line()).isEqualTo(events);
            assertThat(drained).as("queue drained; " + t.line()).isTrue();
            Map<Long, Integer> exits = supervisor.exits();
            assertThat(exits.values()).as("every restart exited 0").containsOnly(0).hasSize(RESTARTS);
            assertThat(supervisor.log()).as("each daemon served the inherited socket")
                .contains("socket=inherited").doesNotContain("level=ERROR");
        }
    }

    @Test
    void amongSeveralPassedSocketsTheLauncherServesTheOneNamedHttp() throws Exception {
        try (FaultRig rig = FaultRig.notifyOnly();
             SocketSupervisor supervisor = SocketSupervisor.start(rig.env, List.of("metrics", "http"))) {
            HttpResponse<String> live = rig.http().send(HttpRequest.newBuilder(supervisor.base().resolve("/live"))
                .timeout(FaultRig.START).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(live.statusCode()).isEqualTo(200);
            assertThat(supervisor.log()).contains("http listening address=" + supervisor.base().getAuthority() + " tls=off socket=inherited")
                .as("the rig configures 127.0.0.1:0, which the CLI would dial")
                .contains("the inherited socket listens on " + supervisor.base().getAuthority()
                    + " but JETSINK_HTTP_ADDRESS is 127.0.0.1:0");
        }
    }

    @Test
    @SuppressWarnings("try") // "trigger" is never read: its connect makes the supervisor start the daemon
    void severalPassedSocketsAndNoneNamedHttpIsAConfigErrorNamingTheFix() throws Exception {
        try (FaultRig rig = FaultRig.notifyOnly();
             SocketSupervisor supervisor = SocketSupervisor.start(rig.env, List.of("a", "b"));
             java.net.Socket trigger = new java.net.Socket("127.0.0.1", supervisor.base().getPort())) {
            assertThat(supervisor.awaitExit(FaultRig.START)).as("exit 2, a configuration error").isEqualTo(2);
            assertThat(supervisor.log()).contains("2 sockets passed (LISTEN_FDNAMES=a:b) and none is named http")
                .contains("FileDescriptorName=http");
        }
    }
}

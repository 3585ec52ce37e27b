package dev.jetsink.internal.targets;

import ch.qos.logback.classic.Level;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.nats.ServerVersion;
import dev.jetsink.internal.publish.TargetConnection;
import dev.jetsink.testkit.NatsBinary;
import dev.jetsink.testkit.NatsVersion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A target that connects names the server's version in its log, read from the server's INFO, and
 * warns when that server predates the replication fixes ({@value ServerVersion#REPLICATION_FIXED});
 * on a newer server it warns about nothing. The expectation comes from the binary under test
 * ({@code nats-server --version}), not from the INFO the code reads. Tagged {@code broker}, so the
 * compatibility pass proves the warning on 2.9.10 and 2.10.x, and the main suite its absence on the
 * current server.
 */
@Tag("broker")
class ServerVersionWarningTest {

    private static final int EVENTS = 3;

    @Test
    void connectingWarnsIffTheServerPredatesTheReplicationFixes() throws Exception {
        NatsVersion version = NatsBinary.version();
        try (TargetHarness h = new TargetHarness(); CapturedLog log = CapturedLog.of(TargetConnection.class)) {
            h.createDefaultStream();
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(TargetKind.NOTIFY)));
            TargetHarness.sendAll(t, TargetKind.NOTIFY, 0, EVENTS);
            h.awaitResolved(EVENTS);

            assertThat(log.lines(Level.INFO, "connected to nats-server")).as("the version named once")
                .singleElement().asString().contains("connected to nats-server " + version + " ");
            if (ServerVersion.replicationFixed(version.toString())) {
                assertThat(log.at(Level.WARN)).as("nats-server %s is current: no warning", version).isEmpty();
            } else {
                assertThat(log.at(Level.WARN)).as("nats-server %s predates %s", version, ServerVersion.REPLICATION_FIXED)
                    .singleElement().asString()
                    .contains("nats-server " + version + " predates the fixes")
                    .contains("lose acknowledged messages after a leader change")
                    .contains("connection=\"");
            }
        }
    }
}

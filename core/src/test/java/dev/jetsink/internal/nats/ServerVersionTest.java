package dev.jetsink.internal.nats;

import static org.assertj.core.api.Assertions.assertThat;

import io.nats.client.api.ServerInfo;
import org.junit.jupiter.api.Test;

class ServerVersionTest {

    private static ServerInfo info(String version) {
        return new ServerInfo("INFO {\"server_id\":\"X\",\"version\":\"" + version + "\",\"go\":\"go1.24\"}");
    }

    @Test
    void aServerOlderThanTheOldestTestedIsWarnedAbout() {
        assertThat(ServerVersion.warning(info("2.9.9"))).hasValueSatisfying(w -> assertThat(w)
                .contains("2.9.9").contains("older than " + ServerVersion.OLDEST_TESTED));
        assertThat(ServerVersion.warning(info("2.2.6"))).isPresent();
    }

    @Test
    void aServerBeforeTheReplicationFixesIsWarnedAboutItsAcknowledgements() {
        for (String v : new String[] {ServerVersion.OLDEST_TESTED, "2.10.27", "2.11.8", "2.11.9", "2.11.10", "2.12.0"}) {
            assertThat(ServerVersion.warning(info(v))).as(v).hasValueSatisfying(w -> assertThat(w)
                    .contains(v).contains("lose acknowledged messages after a leader change"));
        }
    }

    @Test
    void aCurrentServerIsNot() {
        for (String v : new String[] {"2.11.11", "2.11.12", "2.12.1", "2.13.0", "2.14.0", "2.15.1", "3.0.0"}) {
            assertThat(ServerVersion.warning(info(v))).as(v).isEmpty();
        }
    }

    @Test
    void theReplicationFixesAreReadFromEachReleaseLine() {
        assertThat(ServerVersion.replicationFixed("v2.12.1")).isTrue();
        assertThat(ServerVersion.replicationFixed("2.14.0-RC.1")).isTrue();
        assertThat(ServerVersion.replicationFixed("2.12.0")).as("#7209 without #7424").isFalse();
        assertThat(ServerVersion.replicationFixed("2.11.10")).as("#7209 without #7424").isFalse();
        assertThat(ServerVersion.replicationFixed("not a version")).isFalse();
    }

    @Test
    void aServerThatDoesNotSayItsVersionIsWarnedAbout() {
        assertThat(ServerVersion.warning(new ServerInfo("INFO {\"server_id\":\"X\"}"))).isPresent();
    }
}

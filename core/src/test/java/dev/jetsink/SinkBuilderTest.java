package dev.jetsink;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The builder speaks its own terms (issue #24): bad arguments are refused at the setter with the
 * setter's name, and configuration errors found at build() name setters, not the daemon's keys.
 * No server is needed: each of these fails before a connection is tried.
 */
class SinkBuilderTest {
    @TempDir
    Path queue;

    @Test
    void anEmptyQueueDirIsRefusedAtTheSetter() {
        assertThatThrownBy(() -> Jetsink.notifySink().queueDir(Path.of("")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("queueDir(...)");
        assertThatThrownBy(() -> Jetsink.notifySink().queueDir(null))
            .isInstanceOf(NullPointerException.class).hasMessageStartingWith("queueDir(...)");
    }

    @Test
    void impossibleNumbersAreRefusedAtTheSetter() {
        assertThatThrownBy(() -> Jetsink.notifySink().queueLimit(0)).hasMessageStartingWith("queueLimit(...)");
        assertThatThrownBy(() -> Jetsink.notifySink().publishWindow(-1)).hasMessageStartingWith("publishWindow(...)");
        assertThatThrownBy(() -> Jetsink.notifySink().ackTimeout(Duration.ofSeconds(5))).hasMessageStartingWith("ackTimeout(...)");
    }

    @Test
    void emptyOrNullTextIsRefusedAtTheSetter() {
        assertThatThrownBy(() -> Jetsink.notifySink().servers()).hasMessageStartingWith("servers(...)");
        assertThatThrownBy(() -> Jetsink.notifySink().servers("")).hasMessageStartingWith("servers(...)");
        assertThatThrownBy(() -> Jetsink.notifySink().subject(null)).isInstanceOf(NullPointerException.class)
            .hasMessageStartingWith("subject(...)");
        assertThatThrownBy(() -> Jetsink.notifySink().jetStream(" ")).hasMessageStartingWith("jetStream(...)");
    }

    @Test
    void missingServersAreReportedAsServersNotAsTheDaemonsKey() {
        InvalidConfigException e = catchThrowableOfType(
            () -> Jetsink.notifySink().subject("app.events").queueDir(queue).build(), InvalidConfigException.class);
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("servers(...)").doesNotContain("RUSTFS_");
    }

    @Test
    void aBadServerAddressIsReportedAsServers() {
        InvalidConfigException e = catchThrowableOfType(() -> Jetsink.notifySink().servers("nats://no such host:x")
            .subject("app.events").queueDir(queue).build(), InvalidConfigException.class);
        assertThat(e).isNotNull();
        assertThat(e.problems()).extracting(ConfigProblem::variable).contains("servers(...)");
        assertThat(e.getMessage()).doesNotContain("RUSTFS_");
    }

    @Test
    void keysFromAnEnvironmentMapKeepTheirNames() {
        InvalidConfigException e = catchThrowableOfType(() -> Jetsink.notifyFromEnvironment(java.util.Map.of(
            "RUSTFS_NOTIFY_NATS_ADDRESS", "nats://no such host:x")).subject("app.events").queueDir(queue).build(),
            InvalidConfigException.class);
        assertThat(e).isNotNull();
        assertThat(e.problems()).extracting(ConfigProblem::variable).contains("RUSTFS_NOTIFY_NATS_ADDRESS");
    }

    @Test
    void aSinkBuiltFromSettersStillDeliversNowhereWithoutAQueueDir() {
        InvalidConfigException e = catchThrowableOfType(() -> Jetsink.notifySink().servers("nats://127.0.0.1:4222")
            .subject("app.events").build(), InvalidConfigException.class);
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("queueDir").doesNotContain("RUSTFS_");
    }
}

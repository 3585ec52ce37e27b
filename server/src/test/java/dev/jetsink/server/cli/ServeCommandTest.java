package dev.jetsink.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.server.ExitCode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code serve} refuses an invalid configuration before starting anything
 * (DESIGN.md "Configuration").
 */
class ServeCommandTest {

    @Test
    void invalidValuesExitTwoListingEveryError() {
        Map<String, String> env = Map.of(
            "RUSTFS_NOTIFY_NATS_ENABLE", "on",
            "RUSTFS_NOTIFY_NATS_ADDRESS", "127.0.0.1:4222",
            "RUSTFS_NOTIFY_NATS_SUBJECT", "rustfs.events",
            "RUSTFS_NOTIFY_NATS_JETSTREAM_ENABLE", "maybe",
            "RUSTFS_NOTIFY_NATS_JETSTREAM_ACK_TIMEOUT_SECS", "5",
            "RUSTFS_AUDIT_NATS_ENABLE", "on",
            "RUSTFS_AUDIT_NATS_SUBJECT", "audit.events",
            "RUSTFS_AUDIT_NATS_PASSWORD", "hunter2-secret");
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new ServeCommand(env));
        cli.setErr(new PrintWriter(err));
        assertThat(cli.execute()).isEqualTo(ExitCode.USAGE);
        assertThat(err.toString()).contains(
            "Invalid jetstream_enable boolean value: maybe",
            "jetstream_ack_timeout_secs must be between 10 and 120 seconds",
            "RUSTFS_AUDIT_NATS_ADDRESS")
            .doesNotContain("hunter2-secret");
    }
}

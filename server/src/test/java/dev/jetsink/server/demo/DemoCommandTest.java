package dev.jetsink.server.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.server.ExitCode;
import dev.jetsink.testkit.NatsBinary;
import dev.jetsink.testkit.NatsVersion;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code jetsink demo}: the README's first command names the nats-server version it runs, proves
 * delivery and exits 0.
 */
class DemoCommandTest {

    @Test
    void demoDeliversEveryAcknowledgedEventExactlyOnceAcrossABrokerKill() {
        StringWriter out = new StringWriter();
        CommandLine cli = new CommandLine(new DemoCommand(System.getenv()));
        cli.setOut(new PrintWriter(out));
        int code = cli.execute("--events", "800");
        String text = out.toString();
        assertThat(code).as(text).isZero();
        NatsVersion version = NatsBinary.version(NatsServerBinary.locate(System.getenv()).orElseThrow());
        assertThat(text).as("the version of the binary it runs").contains("nats-server " + version + " at nats://");
        assertThat(text).contains("SIGKILL nats-server mid-burst", "nats-server restarted on the same port",
            "PASS: every acknowledged event is in the stream exactly once (lost 0, duplicates stored 0)");
        Map<String, Long> table = table(text);
        assertThat(table).containsEntry("events sent (acknowledged 200)", 800L)
            .containsEntry("events in stream", 800L)
            .containsEntry("distinct Nats-Msg-Ids", 800L)
            .containsEntry("duplicates", 0L)
            .containsEntry("missing", 0L)
            .containsEntry("queue length", 0L)
            .containsEntry("failed-store length", 0L);
    }

    @Test
    void demoWithoutNatsServerSaysHowToInstallIt() {
        StringWriter err = new StringWriter();
        Map<String, String> env = new HashMap<>();
        env.put("NATS_SERVER_BIN", "/nonexistent/nats-server");
        CommandLine cli = new CommandLine(new DemoCommand(env));
        cli.setErr(new PrintWriter(err));
        assertThat(cli.execute()).isEqualTo(ExitCode.FAILURE);
        assertThat(err.toString()).contains("nats-server not found", "apt-get install nats-server");
    }

    private static Map<String, Long> table(String text) {
        Map<String, Long> rows = new HashMap<>();
        for (String line : text.split("\n")) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^  (.+?)\\s+(\\d+)$").matcher(line);
            if (m.matches()) {
                rows.put(m.group(1), Long.parseLong(m.group(2)));
            }
        }
        return rows;
    }
}

package dev.jetsink.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.server.ExitCode;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.Nats;
import io.nats.client.PublishOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code stream-tail --target ID} against a real nats-server with user/password auth: the last
 * messages of the target's stream, through the target's own connection; a Core target, a missing
 * stream and a refused password are clear errors, and the password is never printed.
 */
class StreamTailCommandTest {
    private static final String PASSWORD = "tail-Pa55word";

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- out\n" + out + "--- err\n" + err;
        }
    }

    private Run tail(Path config, String... more) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new StreamTailCommand(Map.of()));
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        cli.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println(ex.getMessage());
            return ExitCode.USAGE;
        });
        String[] args = new String[more.length + 4];
        args[0] = "--target";
        args[1] = "primary";
        args[2] = "--config";
        args[3] = config.toString();
        System.arraycopy(more, 0, args, 4, more.length);
        return new Run(cli.execute(args), out.toString(), err.toString());
    }

    private Path config(String address, String password, boolean jetStream) throws Exception {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("RUSTFS_NOTIFY_NATS_ENABLE_PRIMARY", "on");
        env.put("RUSTFS_NOTIFY_NATS_ADDRESS_PRIMARY", address);
        env.put("RUSTFS_NOTIFY_NATS_SUBJECT_PRIMARY", "store.events");
        env.put("RUSTFS_NOTIFY_NATS_USERNAME_PRIMARY", "jetsink");
        env.put("RUSTFS_NOTIFY_NATS_PASSWORD_PRIMARY", password);
        env.put("RUSTFS_NOTIFY_NATS_QUEUE_DIR_PRIMARY", dir.resolve("queue").toString());
        if (jetStream) {
            env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_ENABLE_PRIMARY", "on");
            env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_STREAM_NAME_PRIMARY", "TAILED");
        }
        return Files.writeString(dir.resolve("jetsink-" + jetStream + ".env"),
            env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue() + "\n").collect(Collectors.joining()));
    }

    private static NatsServer server() {
        return NatsServer.builder()
            .config("authorization { users = [ { user: jetsink, password: \"" + PASSWORD + "\" } ] }").build().start();
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    @Test
    void printsTheLastMessagesOfTheTargetsStreamOldestFirst() throws Exception {
        try (NatsServer nats = server();
             Connection c = Nats.connect(new io.nats.client.Options.Builder().server(nats.url())
                 .userInfo("jetsink", PASSWORD).build())) {
            Streams.create(c, StreamSpec.of("TAILED", "store.events").build());
            JetStream js = c.jetStream();
            for (int i = 1; i <= 4; i++) {
                js.publish("store.events", ("{\"event\":" + i + "}").getBytes(StandardCharsets.UTF_8),
                    PublishOptions.builder().messageId("id-" + i).build());
            }

            Run run = tail(config(nats.url(), PASSWORD, true), "--last", "2");

            assertThat(run.exit()).as(run.toString()).isZero();
            assertThat(run.out()).contains("stream TAILED").contains("4 message(s), last sequence 4")
                .contains("target notify primary:nats").doesNotContain("id-2").doesNotContain(PASSWORD);
            assertThat(run.out().indexOf("#3 ")).as("oldest first").isLessThan(run.out().indexOf("#4 "));
            assertThat(run.out()).contains("msg_id=id-3").contains("msg_id=id-4").contains("{\"event\":4}");
        }
    }

    @Test
    void aMissingStreamARefusedPasswordAndACoreTargetAreClearErrors() throws Exception {
        try (NatsServer nats = server()) {
            Run missing = tail(config(nats.url(), PASSWORD, true));
            assertThat(missing.exit()).as(missing.toString()).isEqualTo(ExitCode.FAILURE);
            assertThat(missing.err()).contains("stream TAILED").contains("not found");

            Run refused = tail(config(nats.url(), "wrong-" + PASSWORD, true));
            assertThat(refused.exit()).isEqualTo(ExitCode.FAILURE);
            assertThat(refused.err()).contains("the server refused the credentials").doesNotContain(PASSWORD);

            Run core = tail(config(nats.url(), PASSWORD, false));
            assertThat(core.exit()).isEqualTo(ExitCode.USAGE);
            assertThat(core.err()).contains("publishes over NATS Core and has no stream");
        }
    }
}

package dev.jetsink.server.cli;

import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.nats.ConnectFailedException;
import dev.jetsink.internal.nats.ConnectionFactory;
import dev.jetsink.internal.nats.ConnectionSettings;
import dev.jetsink.server.ExitCode;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.MessageInfo;
import io.nats.client.api.StreamState;
import io.nats.client.impl.Headers;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code stream-tail --target ID}: the last messages of a configured target's stream, read through
 * the target's own connection (servers, auth, TLS, JetStream domain or prefix). The smoke test of
 * a new installation for readers without the {@code nats} CLI: post a sender's body, then see it
 * in the stream. It only reads.
 */
@Command(name = "stream-tail", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Print the last messages of a configured target's JetStream stream (read-only),",
        "through the target's own connection: a smoke test after pointing a store at jetsink."})
public final class StreamTailCommand implements Callable<Integer> {
    /** Bound on connecting and on each read; the operator is waiting at a terminal. */
    static final Duration DEADLINE = Duration.ofSeconds(10);
    /** How much of a payload a line shows. */
    static final int PAYLOAD_CHARS = 400;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    TargetSelection selection = new TargetSelection();

    @Option(names = "--last", paramLabel = "N", defaultValue = "5", description = "how many messages, 1..100 (default 5)")
    int last;

    @Option(names = "--full", description = "print whole payloads, not the first " + PAYLOAD_CHARS + " characters")
    boolean full;

    private final Map<String, String> env;

    public StreamTailCommand() {
        this(System.getenv());
    }

    /** For tests: read {@code --target}'s configuration from {@code env} instead of the process environment. */
    public StreamTailCommand(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    @Override
    public Integer call() {
        if (!selection.selected()) {
            throw usage("--target ID is required: the stream and the connection are the target's");
        }
        if (last < 1 || last > 100) {
            throw usage("--last must be between 1 and 100");
        }
        TargetConfig target;
        try {
            target = selection.resolve(env);
        } catch (IllegalArgumentException e) {
            throw usage("--target: " + e.getMessage());
        }
        if (!target.jetstreamEnabled() || target.streamName().isEmpty()) {
            throw usage("target " + target.displayId() + " publishes over NATS Core and has no stream;"
                + " watch its subject with a subscriber (nats sub " + target.subject() + ")");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ConnectionSettings settings = ConnectionSettings.from(target);
        String where = String.join(",", settings.displayServers());
        Connection conn;
        try {
            conn = ConnectionFactory.builder(settings).connectionName("jetsink-stream-tail").build().connect(DEADLINE);
        } catch (ConnectFailedException e) {
            err.println("cannot connect to " + where + ": " + e.getMessage());
            return ExitCode.FAILURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitCode.FAILURE;
        }
        String stream = target.streamName().get();
        try {
            JetStreamManagement jsm = conn.jetStreamManagement(settings.jetStreamApi().options(DEADLINE));
            StreamState state = jsm.getStreamInfo(stream).getStreamState();
            out.println("stream " + stream + " on " + where + ": " + state.getMsgCount() + " message(s), last sequence "
                + state.getLastSequence() + " (target " + target.displayId() + ")");
            for (MessageInfo m : lastMessages(jsm, stream, state)) {
                print(out, m);
            }
            out.flush();
            return ExitCode.OK;
        } catch (JetStreamApiException e) {
            err.println("stream " + stream + " on " + where + ": " + (e.getApiErrorCode() == 10059 ? "not found"
                : e.getErrorDescription() + " (code " + e.getApiErrorCode() + ")"));
            return ExitCode.FAILURE;
        } catch (IOException e) {
            err.println("stream " + stream + " on " + where + ": JetStream did not answer: " + e.getMessage());
            return ExitCode.FAILURE;
        } finally {
            try {
                ConnectionFactory.close(conn);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Up to {@code last} messages, oldest first, walking back from the last sequence over deleted ones. */
    private Deque<MessageInfo> lastMessages(JetStreamManagement jsm, String stream, StreamState state)
            throws IOException, JetStreamApiException {
        Deque<MessageInfo> found = new ArrayDeque<>();
        for (long seq = state.getLastSequence(); seq >= state.getFirstSequence() && seq > 0 && found.size() < last; seq--) {
            try {
                found.addFirst(jsm.getMessage(stream, seq));
            } catch (JetStreamApiException e) {
                if (e.getApiErrorCode() != 10037) { // 10037: no message at that sequence (deleted)
                    throw e;
                }
            }
        }
        return found;
    }

    private void print(PrintWriter out, MessageInfo m) {
        Headers h = m.getHeaders();
        String msgId = h == null ? null : h.getFirst("Nats-Msg-Id");
        String payload = m.getData() == null ? "" : new String(m.getData(), StandardCharsets.UTF_8);
        if (!full && payload.length() > PAYLOAD_CHARS) {
            payload = payload.substring(0, PAYLOAD_CHARS) + "... (" + m.getData().length + " bytes)";
        }
        out.println("#" + m.getSeq() + " " + m.getTime() + " subject=" + m.getSubject()
            + (msgId == null ? "" : " msg_id=" + msgId));
        out.println("  " + payload);
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}

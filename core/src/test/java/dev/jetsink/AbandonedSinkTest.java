package dev.jetsink;

import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A sink its caller never closed does not keep the JVM alive: {@link AbandonedSinkMain} runs in a
 * child JVM, returns from {@code main} with the sink open, and the child must exit on its own.
 */
class AbandonedSinkTest extends ServerTestBase {
    private static final String STREAM = "SINK";
    /** Time from main's return to the JVM's exit; idle pool threads end within a second. */
    private static final Duration EXIT = Duration.ofSeconds(20);

    @Test
    void aJetStreamSinkLeftOpenLetsItsJvmExit() throws Exception {
        Streams.create(admin, StreamSpec.of(STREAM, "app.events").duplicateWindow(Duration.ofMinutes(5)).build());
        assertExitsOnItsOwn(server.url(), "jetstream", STREAM);
        assertThat(Streams.readAll(admin, STREAM)).hasSize(1);
    }

    @Test
    void aCoreSinkLeftOpenLetsItsJvmExit() throws Exception {
        assertExitsOnItsOwn(server.url(), "core");
    }

    @Test
    void aSinkThatNeverReachedItsServerLetsItsJvmExit() throws Exception {
        int nowhere;
        try (ServerSocket probe = new ServerSocket(0)) {
            nowhere = probe.getLocalPort();
        }
        assertExitsOnItsOwn("nats://127.0.0.1:" + nowhere, "unreached");
    }

    private void assertExitsOnItsOwn(String url, String... mode) throws Exception {
        List<String> command = new ArrayList<>(List.of(javaBinary(), "-cp", System.getProperty("java.class.path"),
            AbandonedSinkMain.class.getName(), url, queue.toString()));
        command.addAll(List.of(mode));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        Output output = Output.of(child.getInputStream());
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> output.text().contains(AbandonedSinkMain.RETURNING)
                || !child.isAlive());
            assertThat(output.text()).as("the child's output").contains(AbandonedSinkMain.RETURNING);
            boolean exited = child.waitFor(EXIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(exited).as("the child returned from main without close and must exit within %s;"
                + " threads keeping it alive:%n%s%nits output:%n%s", EXIT, exited ? "" : nonDaemonThreads(child),
                output.text()).isTrue();
            assertThat(child.exitValue()).as(output.text()).isZero();
        } finally {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The child's non-daemon threads, from jstack, so a failure names what holds the JVM. */
    private static String nonDaemonThreads(Process child) throws IOException, InterruptedException {
        Process jstack = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jstack").toString(),
            Long.toString(child.pid())).redirectErrorStream(true).start();
        String dump = new String(jstack.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        jstack.waitFor(30, TimeUnit.SECONDS);
        return dump.lines().filter(l -> l.startsWith("\"") && l.contains(" #") && !l.contains(" daemon "))
            .collect(Collectors.joining("\n"));
    }

    /** Collects a child's output as it comes, so the test can wait for a line and still show all of it. */
    private static final class Output {
        private final StringBuilder text = new StringBuilder();

        static Output of(InputStream in) {
            Output output = new Output();
            Thread reader = new Thread(() -> {
                byte[] buffer = new byte[4096];
                try {
                    for (int n; (n = in.read(buffer)) > 0; ) {
                        output.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                    }
                } catch (IOException e) {
                    // the child went away; what it wrote so far is kept
                }
            }, "abandoned-sink-output");
            reader.setDaemon(true);
            reader.start();
            return output;
        }

        synchronized void append(String chunk) {
            text.append(chunk);
        }

        synchronized String text() {
            return text.toString();
        }
    }
}

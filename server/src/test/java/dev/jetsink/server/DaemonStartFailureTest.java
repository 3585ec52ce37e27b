package dev.jetsink.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jetsink.internal.config.JetsinkConfig;
import dev.jetsink.internal.queue.QueueOptions;
import dev.jetsink.internal.queue.SegmentedQueue;
import dev.jetsink.server.cli.ServeCommand;
import dev.jetsink.server.testing.DaemonHarness;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A start that fails at any step closes what it opened before (DESIGN.md "Daemon"): every queue
 * can be opened again and the HTTP port bound again, in the same JVM, right after.
 */
class DaemonStartFailureTest {

    @Test
    void failureAtEachStepOfStartLeavesNoQueueLockedAndNoPortBound() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            int port = freePort();
            h.env.put("JETSINK_HTTP_ADDRESS", "127.0.0.1:" + port);
            JetsinkConfig config = config(h);
            List<Path> queues = config.targets().stream().flatMap(c -> c.queuePath().stream()).toList();
            assertThat(queues).as("notify and audit queues").hasSize(2);

            List<String> steps = new ArrayList<>();
            Daemon.start(config, Optional.empty(), steps::add).shutdown();
            assertThat(steps).contains("http socket", "notify targets", "audit targets", "http serving", "jvm meters");

            for (String step : steps) {
                assertThatThrownBy(() -> Daemon.start(config, Optional.empty(), s -> {
                    if (s.equals(step)) {
                        throw new InjectedFailure(step);
                    }
                })).as("start failing at %s", step).isInstanceOf(InjectedFailure.class);
                for (Path queue : queues) {
                    SegmentedQueue.open(queue, QueueOptions.withLimit(100)).close();
                }
                assertBindable(port, step);
            }
        }
    }

    @Test
    void failedStartThrowsTheFailureItselfAndCanBeFollowedByAGoodStart() throws Exception {
        try (DaemonHarness h = new DaemonHarness().withDefaultStream()) {
            JetsinkConfig config = config(h);
            assertThatThrownBy(() -> Daemon.start(config, Optional.empty(), s -> {
                if (s.equals("http serving")) {
                    throw new AssertionError("an Error at the last step");
                }
            })).isInstanceOf(AssertionError.class).hasNoSuppressedExceptions();
            Daemon.start(config).shutdown();
        }
    }

    private static JetsinkConfig config(DaemonHarness h) {
        StringWriter err = new StringWriter();
        return ServeCommand.resolve(h.env, Optional.empty(), false, new PrintWriter(err))
            .orElseThrow(() -> new IllegalArgumentException("test config invalid: " + err));
    }

    private static void assertBindable(int port, String step) throws IOException {
        try (ServerSocket again = new ServerSocket()) {
            again.setReuseAddress(false);
            again.bind(new InetSocketAddress("127.0.0.1", port));
        } catch (IOException e) {
            throw new AssertionError("port " + port + " still bound after a failure at " + step, e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static final class InjectedFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InjectedFailure(String step) {
            super("injected at " + step);
        }
    }
}

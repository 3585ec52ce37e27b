package dev.jetsink.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Set;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One real {@code nats-server} process on 127.0.0.1, for tests.
 *
 * <p>The first start lets the server pick its own port ({@code -p -1 --ports_file_dir}), so
 * parallel tests never race for a port; {@link #restart()} comes back on the same port and store
 * dir, which is what a client reconnecting after a crash expects. The server logs to
 * {@link #logFile()}; put {@link #logTail(int)} in assertion messages so a failing test shows what
 * the server saw.
 *
 * <pre>{@code
 * try (NatsServer nats = NatsServer.builder().build().start()) {
 *     Connection c = Nats.connect(nats.url());
 * }
 * }</pre>
 */
public final class NatsServer implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    /** How long {@link #pause()} and {@link #resume()} wait for the threads to take the signal. */
    private static final Duration SIGNAL_TIMEOUT = Duration.ofSeconds(5);
    /**
     * The port {@code -p -1} picked lies in the kernel's ephemeral range, so while the server is
     * down an outgoing connection of any process may hold it for a while: keep trying for ~30 s.
     */
    private static final int RESTART_ATTEMPTS = 60;

    private final NatsServerOptions options;
    private final Path workDir;
    private final Path storeDir;
    private final Path portsDir;
    private final Path logFile;
    private final Optional<Path> configFile;
    private Process process;
    private int port = -1;

    NatsServer(NatsServerOptions options) {
        this.options = options;
        this.workDir = Dirs.createTemp("jetsink-nats-");
        this.storeDir = options.storeDir().orElse(workDir.resolve("store"));
        this.portsDir = workDir.resolve("ports");
        this.logFile = workDir.resolve("nats-server.log");
        this.configFile = writeConfig(options, workDir.resolve("nats-server.conf"));
    }

    /** A builder with JetStream on, a fresh temporary store dir and the located binary. */
    public static NatsServerOptions.Builder builder() {
        return NatsServerOptions.builder();
    }

    /** Starts a default server (JetStream on, temporary store). */
    public static NatsServer startDefault() {
        return builder().build().start();
    }

    /**
     * Starts the process and waits until its client port accepts TCP connections.
     *
     * @return this server
     * @throws IllegalStateException if it is running already, or does not come up; the message
     *     carries the tail of its log
     */
    public synchronized NatsServer start() {
        if (isAlive()) {
            throw new IllegalStateException("nats-server already running on port " + port);
        }
        launch(OptionalInt.empty());
        return this;
    }

    /**
     * Starts the server again on the same port and store dir; kills it first if it is still
     * running. Retries briefly when the port is momentarily unavailable.
     */
    public synchronized NatsServer restart() {
        if (port < 0) {
            throw new IllegalStateException("restart() needs a server that was started once");
        }
        if (isAlive()) {
            kill();
        }
        IllegalStateException last = null;
        for (int attempt = 0; attempt < RESTART_ATTEMPTS; attempt++) {
            try {
                launch(OptionalInt.of(port));
                return this;
            } catch (IllegalStateException e) {
                last = e;
                pauseBriefly(500);
            }
        }
        throw last;
    }

    /** Sends SIGKILL and waits for the process to exit; no-op if it is not running. */
    public synchronized void kill() {
        if (isAlive()) {
            process.destroyForcibly();
            awaitExit();
        }
    }

    /** Sends SIGTERM (a clean shutdown) and waits for the process to exit. */
    public synchronized void stop() {
        if (isAlive()) {
            process.destroy();
            awaitExit();
        }
    }

    /**
     * Freezes the process with SIGSTOP: connections stay open but nothing is answered. Returns once
     * every thread of the process is stopped ({@code kill} returns before that), so nothing the
     * server does can happen after this call.
     *
     * @throws IllegalStateException if the threads are not all stopped within 5 s
     */
    public synchronized void pause() {
        long pid = pid();
        Signals.send("STOP", pid);
        TaskStates.await(pid, TaskStates::allStopped, SIGNAL_TIMEOUT, "stopped after SIGSTOP");
    }

    /**
     * Continues a process frozen by {@link #pause()} with SIGCONT; returns once no thread of it is
     * stopped.
     *
     * @throws IllegalStateException if some thread is still stopped after 5 s
     */
    public synchronized void resume() {
        long pid = pid();
        Signals.send("CONT", pid);
        TaskStates.await(pid, TaskStates::noneStopped, SIGNAL_TIMEOUT, "running after SIGCONT");
    }

    /** {@code nats://127.0.0.1:<port>}. */
    public String url() {
        return "nats://127.0.0.1:" + port();
    }

    /** The client port; stable across {@link #restart()}. */
    public synchronized int port() {
        if (port < 0) {
            throw new IllegalStateException("nats-server not started yet");
        }
        return port;
    }

    /** The JetStream store dir ({@code -sd}); kept across restarts. */
    public Path storeDir() {
        return storeDir;
    }

    /** The server's log file ({@code -l}); it also receives the process's stderr. */
    public Path logFile() {
        return logFile;
    }

    /** Whether the process is running (a paused process counts as running). */
    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** The process id of the running server. */
    public synchronized long pid() {
        if (!isAlive()) {
            throw new IllegalStateException("nats-server is not running");
        }
        return process.pid();
    }

    /** The last {@code lines} lines of the log, for assertion and error messages. */
    public String logTail(int lines) {
        return ServerLog.tail(logFile, lines);
    }

    /**
     * Kills the process if alive (resuming it first if paused) and deletes the temporary dirs
     * the fixture made. A store dir passed to the builder is left alone. Set the system property
     * {@code jetsink.keepNatsFiles=true} to keep everything for a post-mortem.
     */
    @Override
    public synchronized void close() {
        if (isAlive()) {
            // A stopped process still dies from SIGKILL, but continuing it first is harmless.
            Signals.sendQuietly("CONT", process.pid());
            kill();
        }
        if (!Boolean.getBoolean("jetsink.keepNatsFiles")) {
            Dirs.deleteQuietly(workDir);
        }
    }

    @Override
    public String toString() {
        return "NatsServer[" + (port < 0 ? "not started" : url()) + ", log " + logFile + "]";
    }

    private void launch(OptionalInt fixedPort) {
        announce(options.binary());
        try {
            Files.createDirectories(portsDir);
            clearPortsDir();
            ProcessBuilder pb = new ProcessBuilder(command(fixedPort))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + options.binary(), e);
        }
        port = awaitPort(fixedPort);
    }

    /** Binaries this JVM has started, each named once in the test output with its version. */
    private static final Set<Path> ANNOUNCED = ConcurrentHashMap.newKeySet();

    private static void announce(Path binary) {
        if (ANNOUNCED.add(binary)) {
            System.out.println("testkit: nats-server " + NatsBinary.version(binary) + " (" + binary + ")");
        }
    }

    private List<String> command(OptionalInt fixedPort) {
        List<String> cmd = new ArrayList<>();
        cmd.add(options.binary().toString());
        configFile.ifPresent(f -> cmd.addAll(List.of("-c", f.toString())));
        cmd.addAll(List.of("-a", "127.0.0.1",
                "-p", fixedPort.isPresent() ? Integer.toString(fixedPort.getAsInt()) : "-1",
                "--ports_file_dir", portsDir.toString(),
                "-l", logFile.toString()));
        if (options.jetStream()) {
            cmd.addAll(List.of("-js", "-sd", storeDir.toString()));
        }
        cmd.addAll(options.extraArgs());
        return cmd;
    }

    private int awaitPort(OptionalInt fixedPort) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("nats-server exited with " + process.exitValue()
                        + " while starting\n" + logTail(30));
            }
            Optional<Integer> found = PortsFile.clientPort(portsDir, process.pid());
            if (found.isPresent() && accepts(found.get())) {
                if (fixedPort.isPresent() && fixedPort.getAsInt() != found.get()) {
                    throw new IllegalStateException("nats-server came up on " + found.get()
                            + " instead of " + fixedPort.getAsInt());
                }
                return found.get();
            }
            pauseBriefly(20);
        }
        process.destroyForcibly();
        awaitExit();
        throw new IllegalStateException("nats-server did not start within " + START_TIMEOUT
                + "\n" + logTail(30));
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void awaitExit() {
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for nats-server to exit", e);
        }
    }

    private void clearPortsDir() throws IOException {
        try (var files = Files.list(portsDir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(f);
            }
        }
    }

    private static Optional<Path> writeConfig(NatsServerOptions options, Path file) {
        return options.configFileText().map(text -> {
            try {
                return Files.writeString(file, text, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static void pauseBriefly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}

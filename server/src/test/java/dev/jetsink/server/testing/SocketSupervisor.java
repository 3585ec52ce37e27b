package dev.jetsink.server.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The daemon as systemd runs it with {@code jetsink.socket}: {@code systemd-socket-activate} (from
 * Debian's systemd package) holds the listening socket, and {@code supervise.sh} starts the
 * release launcher ({@code dist/bin/jetsink} over the built {@code jetsink.jar}) with it, again
 * after each clean exit. The socket outlives every daemon, so a restart refuses no connection.
 */
public final class SocketSupervisor implements AutoCloseable {

    private static final Pattern STARTED = Pattern.compile("supervisor: started pid=(\\d+)");
    private static final Pattern EXITED = Pattern.compile("supervisor: exited pid=(\\d+) status=(\\d+)");

    private final Process process;
    private final int port;
    private final Path home;
    private final Path stopFile;
    private final List<String> lines = new ArrayList<>();
    private final List<Long> started = new ArrayList<>();
    private final Map<Long, Integer> exits = new LinkedHashMap<>();

    private SocketSupervisor(Process process, int port, Path home) {
        this.process = process;
        this.port = port;
        this.home = home;
        this.stopFile = home.resolve("stop");
        Thread reader = new Thread(this::readLog, "supervisor-stderr");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Listens on a free loopback port; the first daemon starts when the first connection arrives
     * (as with a socket unit), with {@code env} as its configuration.
     */
    public static SocketSupervisor start(Map<String, String> env) throws IOException {
        return start(env, List.of("http"));
    }

    /**
     * Like {@link #start(Map)} with one socket per name in {@code names} (passed in that order, as
     * {@code LISTEN_FDNAMES}); {@link #base()} is the one named {@code http}, else the first.
     */
    public static SocketSupervisor start(Map<String, String> env, List<String> names) throws IOException {
        Path home = Files.createTempDirectory("jetsink-socket");
        Files.createDirectories(home.resolve("bin"));
        Files.createDirectories(home.resolve("lib"));
        Path launcher = home.resolve("bin/jetsink");
        Files.copy(Path.of("..", "dist", "bin", "jetsink"), launcher);
        launcher.toFile().setExecutable(true);
        Path jar = Path.of("target", "jetsink.jar").toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: the socket tests run after the package phase");
        }
        Files.createSymbolicLink(home.resolve("lib/jetsink.jar"), jar);
        Path script = Path.of("src", "test", "resources", "socket-activation", "supervise.sh").toAbsolutePath();
        List<String> cmd = new ArrayList<>(List.of("systemd-socket-activate", "--fdname=" + String.join(":", names)));
        int port = 0;
        for (String name : names) {
            int p;
            try (ServerSocket probe = new ServerSocket(0)) {
                p = probe.getLocalPort();
            }
            cmd.add("--listen=127.0.0.1:" + p);
            if (port == 0 || name.equals("http")) {
                port = p;
            }
        }
        Map<String, String> passed = new LinkedHashMap<>(env);
        passed.put("PATH", System.getenv("PATH"));
        passed.put("JAVA_HOME", System.getProperty("java.home"));
        passed.put("SUPERVISOR_STOP_FILE", home.resolve("stop").toString());
        passed.keySet().forEach(k -> cmd.add("--setenv=" + k));
        cmd.add("bash");
        cmd.add(script.toString());
        cmd.add(launcher.toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().keySet().removeIf(k -> k.startsWith("RUSTFS_") || k.startsWith("JETSINK_"));
        pb.environment().putAll(passed);
        SocketSupervisor supervisor = new SocketSupervisor(pb.start(), port, home);
        supervisor.awaitListening(names.size(), Duration.ofSeconds(30));
        return supervisor;
    }

    /** Waits for systemd-socket-activate's "Listening on ..." line of each socket. */
    private synchronized void awaitListening(int sockets, Duration atMost) throws IOException {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (lines.stream().filter(l -> l.startsWith("Listening on ")).count() < sockets) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !process.isAlive()) {
                process.destroyForcibly();
                throw new IOException("systemd-socket-activate is not listening:\n" + String.join("\n", lines));
            }
            try {
                wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
    }

    private void readLog() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                synchronized (this) {
                    lines.add(line);
                    Matcher s = STARTED.matcher(line);
                    if (s.find()) {
                        started.add(Long.parseLong(s.group(1)));
                    }
                    Matcher e = EXITED.matcher(line);
                    if (e.find()) {
                        exits.put(Long.parseLong(e.group(1)), Integer.parseInt(e.group(2)));
                    }
                    notifyAll();
                }
            }
        } catch (IOException e) {
            // the supervisor ended
        }
    }

    public URI base() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** How many daemons the supervisor started so far. */
    synchronized int starts() {
        return started.size();
    }

    /** Exit status by daemon pid, in order. */
    public synchronized Map<Long, Integer> exits() {
        return Map.copyOf(exits);
    }

    public synchronized String log() {
        return String.join("\n", lines);
    }

    /** Waits until the {@code n}-th daemon has started and returns its pid. */
    public synchronized long awaitStart(int n, Duration atMost) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (started.size() < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !process.isAlive()) {
                throw new IllegalStateException("daemon start " + n + " not seen within " + atMost + ":\n" + String.join("\n", lines));
            }
            wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        }
        return started.get(n - 1);
    }

    /** Waits for the supervisor to end (it ends when a daemon exits non-zero) and returns its exit status. */
    public int awaitExit(Duration atMost) throws InterruptedException {
        if (!process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("supervisor still running after " + atMost + ":\n" + log());
        }
        return process.exitValue();
    }

    /** Sends SIGTERM to the running daemon, waits for its exit and returns its exit status. */
    public int terminateDaemon(Duration atMost) throws IOException, InterruptedException {
        long pid;
        synchronized (this) {
            pid = started.get(started.size() - 1);
        }
        Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(pid)).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -TERM " + pid + " failed");
        }
        synchronized (this) {
            long deadline = System.nanoTime() + atMost.toNanos();
            while (!exits.containsKey(pid)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IllegalStateException("daemon " + pid + " did not exit within " + atMost + ":\n" + log());
                }
                wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
            return exits.get(pid);
        }
    }

    /**
     * Stops the supervisor after the running daemon's clean exit. An interrupt while waiting is
     * kept in the thread's flag, once the supervisor is stopped and its files removed.
     */
    @Override
    public void close() throws IOException {
        Files.writeString(stopFile, "stop");
        boolean interrupted = false;
        try {
            if (process.isAlive() && starts() > 0 && !exits().containsKey(started.get(started.size() - 1))) {
                terminateDaemon(Duration.ofSeconds(30));
            }
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            try (var files = Files.walk(home)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}

package dev.jetsink.server.testing;

import dev.jetsink.server.cli.Main;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code jetsink serve} as a child JVM, its stderr collected, its HTTP port read from the log. */
public final class ServeProcess implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("http listening address=127\\.0\\.0\\.1:(\\d+)");

    public final Process process;
    private final Thread reader;
    private final List<String> lines = new ArrayList<>();
    private final CompletableFuture<Integer> port = new CompletableFuture<>();

    private ServeProcess(Process process) {
        this.process = process;
        this.reader = new Thread(this::readLog, "serve-stderr");
        reader.setDaemon(true);
        reader.start();
    }

    public static ServeProcess start(Map<String, String> env, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:+ExitOnOutOfMemoryError", "-Xmx192m",
            "-cp", System.getProperty("java.class.path"), Main.class.getName(), "serve"));
        // e.g. -Djetsink.serve.jvmArg=-Xlog:gc:file=/tmp/gc-%p.log to measure a scenario's heap
        String extra = System.getProperty("jetsink.serve.jvmArg", "");
        if (!extra.isBlank()) {
            cmd.add(1, extra);
        }
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().keySet().removeIf(k -> k.startsWith("RUSTFS_") || k.startsWith("JETSINK_"));
        pb.environment().putAll(env);
        return new ServeProcess(pb.start());
    }

    private void readLog() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                synchronized (lines) {
                    lines.add(line);
                }
                Matcher m = LISTENING.matcher(line);
                if (m.find()) {
                    port.complete(Integer.parseInt(m.group(1)));
                }
            }
        } catch (IOException e) {
            // the process ended
        }
        port.completeExceptionally(new IllegalStateException("serve exited before listening:\n" + log()));
    }

    /** The HTTP port from the {@code http listening} log line. */
    public int awaitPort(Duration atMost) throws Exception {
        return port.get(atMost.toMillis(), TimeUnit.MILLISECONDS);
    }

    public String log() {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    public List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /**
     * SIGTERM, then the exit code. Sent with {@code kill}, not {@link Process#destroy()}, which
     * also closes our end of the child's stderr and would cut off its shutdown log.
     */
    public int terminate(Duration atMost) throws Exception {
        Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -TERM " + process.pid() + " failed");
        }
        if (!process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("serve did not exit within " + atMost + " of SIGTERM:\n" + log());
        }
        reader.join(atMost.toMillis());
        return process.exitValue();
    }

    /** Waits for the process to exit by itself and its log to be read; returns the exit code. */
    public int awaitExit(Duration atMost) throws InterruptedException {
        if (!process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("serve still running after " + atMost + ":\n" + log());
        }
        reader.join(atMost.toMillis());
        return process.exitValue();
    }

    /** SIGKILL, as a crash: no shutdown hook runs. Waits for the exit and the end of its log. */
    public void kill(Duration atMost) throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("serve still running " + atMost + " after SIGKILL");
        }
        reader.join(atMost.toMillis());
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }

}

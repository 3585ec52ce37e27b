package dev.jetsink.server.demo;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.server.http.HttpJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The demo's throw-away JetStream server: a {@code nats-server} child process on a free loopback
 * port (it picks the port and writes it to a ports file), which the demo SIGKILLs and restarts on
 * the same port and store dir mid-burst.
 */
public final class DemoBroker implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);

    private final Path binary;
    private final Path dir;
    private Process process;
    private int port = -1;

    DemoBroker(Path binary, Path dir) {
        this.binary = binary;
        this.dir = dir;
    }

    DemoBroker start() {
        launch("-1");
        return this;
    }

    String url() {
        return "nats://127.0.0.1:" + port;
    }

    Path logFile() {
        return dir.resolve("nats-server.log");
    }

    /** SIGKILL: no chance to flush or say goodbye, as in a crash. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Starts again on the same port and store dir; retries while the port is still held. */
    void restart() throws InterruptedException {
        IllegalStateException last = null;
        for (int attempt = 0; attempt < 20; attempt++) {
            try {
                launch(Integer.toString(port));
                return;
            } catch (IllegalStateException e) {
                last = e;
                Thread.sleep(250);
            }
        }
        throw last;
    }

    private void launch(String portArg) {
        Path ports = dir.resolve("ports");
        try {
            Files.createDirectories(ports);
            try (Stream<Path> old = Files.list(ports)) {
                for (Path p : old.toList()) {
                    Files.deleteIfExists(p);
                }
            }
            List<String> cmd = new ArrayList<>(List.of(binary.toString(), "-a", "127.0.0.1", "-p", portArg,
                "--ports_file_dir", ports.toString(), "-js", "-sd", dir.resolve("store").toString(),
                "-l", logFile().toString()));
            process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + binary, e);
        }
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("nats-server exited with " + process.exitValue() + "; see " + logFile());
            }
            Optional<Integer> found = clientPort(ports, process.pid());
            if (found.isPresent() && accepts(found.get())) {
                port = found.get();
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        process.destroyForcibly();
        throw new IllegalStateException("nats-server did not start within " + START_TIMEOUT.toSeconds() + " s; see " + logFile());
    }

    // nats-server -p -1 --ports_file_dir writes <exe>_<pid>.ports: {"nats":["nats://127.0.0.1:PORT"],...}
    private static Optional<Integer> clientPort(Path ports, long pid) {
        try (Stream<Path> files = Files.list(ports)) {
            Optional<Path> f = files.filter(p -> p.getFileName().toString().endsWith("_" + pid + ".ports")).findFirst();
            if (f.isEmpty()) {
                return Optional.empty();
            }
            JsonNode urls = Json.READER.readTree(java.nio.file.Files.readAllBytes(f.get())).path("nats");
            return urls.isArray() && !urls.isEmpty()
                ? Optional.of(java.net.URI.create(urls.get(0).asText()).getPort()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

package dev.jetsink.server.chaos;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The campaign's history file: one line per send, answer, fault and check, each stamped with the
 * milliseconds since the campaign began, so a failure can be read against what happened around it.
 */
final class History implements AutoCloseable {

    private final BufferedWriter out;
    private final long startNanos = System.nanoTime();
    final Path file;

    History(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        this.file = file;
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    }

    long millis() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    /** Appends {@code what} with its timestamp; thread-safe. */
    void log(String what) {
        String line = String.format("%9d %s%n", millis(), what);
        synchronized (out) {
            try {
                out.write(line);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + file, e);
            }
        }
    }

    /** Like {@link #log} and echoed on stdout (failsafe keeps it in the test's output file). */
    void say(String what) {
        log(what);
        synchronized (out) {
            try {
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + file, e);
            }
        }
        System.out.println("chaos " + what);
    }

    @Override
    public void close() throws IOException {
        synchronized (out) {
            out.close();
        }
    }
}

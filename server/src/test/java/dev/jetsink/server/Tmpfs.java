package dev.jetsink.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A small tmpfs mounted for one test (needs root, as in CI here); unmounted and removed on close. */
final class Tmpfs implements AutoCloseable {

    final Path dir;

    private Tmpfs(Path dir) {
        this.dir = dir;
    }

    /** Mounts a tmpfs of {@code size} (a {@code mount -o size=} value such as {@code 4m}). */
    static Tmpfs mount(String size) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("jetsink-tmpfs");
        String out = run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString());
        if (out != null) {
            Files.deleteIfExists(dir);
            throw new IllegalStateException("cannot mount a tmpfs on " + dir + " (the test needs root): " + out);
        }
        return new Tmpfs(dir);
    }

    /** Null on success, else the command's output. */
    private static String run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return p.waitFor() == 0 ? null : out;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        // lazy: a process still closing its files must not leave the mount behind
        String out = run("umount", "-l", dir.toString());
        if (out != null) {
            throw new IllegalStateException("cannot unmount " + dir + ": " + out);
        }
        Files.deleteIfExists(dir);
    }
}

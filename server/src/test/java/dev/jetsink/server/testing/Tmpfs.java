package dev.jetsink.server.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A small tmpfs mounted for one test (needs root, as in CI here); unmounted and removed on close. */
public final class Tmpfs implements AutoCloseable {

    public final Path dir;

    private Tmpfs(Path dir) {
        this.dir = dir;
    }

    /** Mounts a tmpfs of {@code size} (a {@code mount -o size=} value such as {@code 4m}). */
    public static Tmpfs mount(String size) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("jetsink-tmpfs");
        String out = run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString());
        if (out != null) {
            Files.deleteIfExists(dir);
            throw new IllegalStateException("cannot mount a tmpfs on " + dir + " (the test needs root): " + out);
        }
        return new Tmpfs(dir);
    }

    /** Remounts read-only ({@code true}) or read-write: a disk that refuses every write, even root's. */
    public void readOnly(boolean readOnly) throws IOException, InterruptedException {
        String out = run("mount", "-o", "remount," + (readOnly ? "ro" : "rw"), dir.toString());
        if (out != null) {
            throw new IllegalStateException("cannot remount " + dir + (readOnly ? " read-only" : " read-write") + ": " + out);
        }
    }

    /** Writes {@code name} until the file system is full; returns it (delete it to free the space). */
    public Path fill(String name) throws IOException {
        Path ballast = dir.resolve(name);
        byte[] chunk = new byte[64 * 1024];
        try (java.io.OutputStream out = Files.newOutputStream(ballast)) {
            while (true) {
                out.write(chunk);
            }
        } catch (IOException full) {
            if (!String.valueOf(full.getMessage()).contains("No space left")) {
                throw full;
            }
        }
        // the last partial chunk may have left a page free: take the rest a byte at a time
        try (java.io.OutputStream out = Files.newOutputStream(ballast, java.nio.file.StandardOpenOption.APPEND)) {
            while (true) {
                out.write(0);
                out.flush();
            }
        } catch (IOException full) {
            return ballast;
        }
    }

    /** Null on success, else the command's output. */
    private static String run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return p.waitFor() == 0 ? null : out;
    }

    /** Unmounts and removes the directory; interrupted while unmounting, it leaves the directory and keeps the flag. */
    @Override
    public void close() throws IOException {
        // lazy: a process still closing its files must not leave the mount behind
        String out;
        try {
            out = run("umount", "-l", dir.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (out != null) {
            throw new IllegalStateException("cannot unmount " + dir + ": " + out);
        }
        Files.deleteIfExists(dir);
    }
}

package dev.jetsink.testkit;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Finds the {@code nats-server} executable the fixtures start.
 *
 * <p>Order: the {@code NATS_SERVER_BIN} environment variable, then {@code PATH}, then
 * {@code /usr/sbin/nats-server}. A missing binary is an error, never a reason to skip a test
 * (DESIGN.md "Test fixtures"): tests that silently skip prove nothing.
 */
public final class NatsBinary {

    /** Environment variable that names the binary explicitly. */
    public static final String ENV = "NATS_SERVER_BIN";

    /** Where Debian's {@code nats-server} package installs the binary. */
    public static final Path DEBIAN_PATH = Path.of("/usr/sbin/nats-server");

    private NatsBinary() {
    }

    /**
     * Locates the binary using this process's environment.
     *
     * @throws IllegalStateException if no executable {@code nats-server} is found
     */
    public static Path locate() {
        return locate(System.getenv(), DEBIAN_PATH);
    }

    /**
     * Locates the binary using the given environment and fallback path, so tests can point the
     * search at places that do not exist without editing the real environment.
     *
     * @throws IllegalStateException if {@code NATS_SERVER_BIN} is set but not executable, or
     *     nothing executable is found
     */
    public static Path locate(Map<String, String> env, Path fallback) {
        String explicit = env.getOrDefault(ENV, "");
        if (!explicit.isBlank()) {
            Path path = Path.of(explicit);
            if (Files.isExecutable(path) && Files.isRegularFile(path)) {
                return path;
            }
            // An explicit choice that is wrong must not be papered over by another binary.
            throw new IllegalStateException(ENV + "=" + explicit + " is not an executable file; "
                    + hint());
        }
        for (String dir : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (dir.isBlank()) {
                continue;
            }
            Path candidate = Path.of(dir, "nats-server");
            if (Files.isExecutable(candidate) && Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        if (Files.isExecutable(fallback) && Files.isRegularFile(fallback)) {
            return fallback;
        }
        throw new IllegalStateException("nats-server not found (looked at $" + ENV
                + ", PATH and " + fallback + "); " + hint());
    }

    private static String hint() {
        return "run bin/test, which installs it, or apt-get install nats-server";
    }
}

package dev.jetsink.testkit;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds the {@code nats-server} executable the fixtures start.
 *
 * <p>Order: the {@code NATS_SERVER_BIN} environment variable (which {@code bin/test} sets), then
 * the newest server {@code bin/lib/ensure-nats-server.sh} fetched from Debian's packages into
 * {@code ~/.cache/jetsink/nats-server/<version>/}, then {@code PATH}, then
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
     * The version of the binary {@link #locate()} finds, read once from its {@code --version}.
     *
     * @throws IllegalStateException if there is no binary or it does not say its version
     */
    public static NatsVersion version() {
        if (version == null) {
            version = version(locate());
        }
        return version;
    }

    private static volatile NatsVersion version;

    /** The version a {@code nats-server} binary reports with {@code --version}. */
    public static NatsVersion version(Path binary) {
        try {
            Process p = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            p.waitFor();
            return NatsVersion.parse(out);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + binary + " --version: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + binary + " --version", e);
        }
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
        Optional<Path> cached = cacheDir(env).flatMap(NatsBinary::newestCached);
        if (cached.isPresent()) {
            return cached.get();
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

    /** Where {@code bin/lib/ensure-nats-server.sh} keeps the servers it fetched. */
    static Optional<Path> cacheDir(Map<String, String> env) {
        String xdg = env.getOrDefault("XDG_CACHE_HOME", "");
        String home = env.getOrDefault("HOME", "");
        if (xdg.isBlank() && home.isBlank()) {
            return Optional.empty();
        }
        Path base = xdg.isBlank() ? Path.of(home, ".cache") : Path.of(xdg);
        return Optional.of(base.resolve("jetsink").resolve("nats-server"));
    }

    /** The newest {@code <version>/nats-server} under {@code dir}, by version. */
    static Optional<Path> newestCached(Path dir) {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(dir)) {
            return versions.filter(d -> NatsVersion.tryParse(d.getFileName().toString()).isPresent())
                    .map(d -> d.resolve("nats-server"))
                    .filter(b -> Files.isExecutable(b) && Files.isRegularFile(b))
                    .max(Comparator.comparing(b -> NatsVersion.parse(b.getParent().getFileName().toString())));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static String hint() {
        return "run bin/test, which fetches a current one from Debian's packages, or set " + ENV;
    }
}

package dev.jetsink.server.demo;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the {@code nats-server} executable the demo starts: {@code NATS_SERVER_BIN} (which
 * {@code bin/jetsink} exports after ensuring the binary), then {@code PATH}, then Debian's
 * {@code /usr/sbin/nats-server}.
 */
public final class NatsServerBinary {

    static final String ENV = "NATS_SERVER_BIN";
    static final Path DEBIAN = Path.of("/usr/sbin/nats-server");

    private NatsServerBinary() {
    }

    static Optional<Path> locate(Map<String, String> env) {
        String explicit = env.getOrDefault(ENV, "");
        if (!explicit.isBlank()) {
            Path p = Path.of(explicit);
            return runnable(p) ? Optional.of(p) : Optional.empty();
        }
        for (String dir : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isBlank() && runnable(Path.of(dir, "nats-server"))) {
                return Optional.of(Path.of(dir, "nats-server"));
            }
        }
        return runnable(DEBIAN) ? Optional.of(DEBIAN) : Optional.empty();
    }

    private static boolean runnable(Path p) {
        return Files.isRegularFile(p) && Files.isExecutable(p);
    }
}

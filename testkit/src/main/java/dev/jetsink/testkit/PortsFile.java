package dev.jetsink.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads the ports file nats-server writes with {@code --ports_file_dir}: a JSON object named
 * {@code <exe>_<pid>.ports} whose {@code "nats"} array lists the client URLs it listens on.
 */
final class PortsFile {

    private static final ObjectMapper JSON = new ObjectMapper();

    private PortsFile() {
    }

    /** The client port of the server with this pid, once its ports file is complete. */
    static Optional<Integer> clientPort(Path dir, long pid) {
        String suffix = "_" + pid + ".ports";
        try (Stream<Path> files = Files.list(dir)) {
            Optional<Path> file = files.filter(f -> f.getFileName().toString().endsWith(suffix)).findFirst();
            if (file.isEmpty()) {
                return Optional.empty();
            }
            JsonNode urls = JSON.readTree(file.get().toFile()).path("nats");
            if (!urls.isArray() || urls.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(URI.create(urls.get(0).asText()).getPort());
        } catch (IOException e) {
            // The server may still be writing the file; the caller polls again.
            return Optional.empty();
        }
    }
}

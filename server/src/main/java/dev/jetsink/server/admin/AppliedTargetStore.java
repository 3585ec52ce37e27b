package dev.jetsink.server.admin;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.http.HttpJson;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Targets applied through the admin API, kept under {@code <JETSINK_DATA_DIR>/admin-targets/} so a
 * restart of {@code serve} brings them back (DESIGN.md "Admin API"). One file per target,
 * {@code <kind>-<id>.json}:
 *
 * <pre>
 * {"kind": "notify", "id": "primary",
 *  "key_values": [{"key": "address", "value": "nats://..."}, ...]}
 * </pre>
 *
 * The values are stored as the operator sent them, secrets included, so the directory is 0700 and
 * each file 0600. A file is written to a temporary name, fsynced, renamed over the old one and the
 * directory fsynced, so a crash leaves the old or the new version, never half of one.
 */
public final class AppliedTargetStore {

    private static final Logger log = LoggerFactory.getLogger(AppliedTargetStore.class);
    public static final String DIRECTORY = "admin-targets";
    private static final String SUFFIX = ".json";

    /** One applied target as persisted. */
    public record Applied(TargetKind kind, String id, Map<String, String> keyValues) {
        public Applied {
            keyValues = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(keyValues));
        }
    }

    private final Path dir;

    public AppliedTargetStore(Path dataDir) {
        this.dir = dataDir.resolve(DIRECTORY);
    }

    Path directory() {
        return dir;
    }

    /** Writes (or replaces) the record of one target atomically. */
    void save(Applied applied) throws IOException {
        ensureDirectory();
        ObjectNode root = Json.object();
        root.put("kind", applied.kind().label());
        root.put("id", applied.id());
        ArrayNode kv = root.putArray("key_values");
        applied.keyValues().forEach((k, v) -> kv.addObject().put("key", k).put("value", v));
        byte[] bytes = Json.PRETTY.writeValueAsBytes(root);
        Path file = fileOf(applied.kind(), applied.id());
        Path tmp = dir.resolve(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
        syncDirectory();
    }

    /** Deletes the record of one target; true when there was one. */
    boolean delete(TargetKind kind, String id) throws IOException {
        boolean deleted = Files.deleteIfExists(fileOf(kind, id));
        if (deleted) {
            syncDirectory();
        }
        return deleted;
    }

    /**
     * Every persisted target, in file name order. A file that cannot be read or parsed is logged
     * at error and skipped (kept on disk for the operator), so one damaged file never stops the
     * daemon from starting.
     */
    public List<Applied> loadAll() {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).sorted().toList();
        } catch (IOException e) {
            log.error("cannot list admin-applied targets, none restored dir={} error=\"{}\"", dir, e.getMessage());
            return List.of();
        }
        List<Applied> out = new ArrayList<>();
        for (Path f : files) {
            try {
                out.add(parse(Json.READER.readTree(java.nio.file.Files.readAllBytes(f))));
            } catch (IOException | IllegalArgumentException e) {
                log.error("admin-applied target file unreadable, not restored file={} error=\"{}\"", f,
                    e.getClass().getSimpleName());
            }
        }
        return out;
    }

    private static Applied parse(JsonNode root) {
        if (root == null || !root.path("kind").isTextual() || !root.path("id").isTextual()
                || !root.path("key_values").isArray()) {
            throw new IllegalArgumentException("not an admin target record");
        }
        Map<String, String> kv = new LinkedHashMap<>();
        for (JsonNode pair : root.get("key_values")) {
            if (!pair.path("key").isTextual() || !pair.path("value").isTextual()) {
                throw new IllegalArgumentException("malformed key_values entry");
            }
            kv.put(pair.get("key").asText(), pair.get("value").asText());
        }
        return new Applied(TargetKind.fromLabel(root.get("kind").asText()),
            root.get("id").asText(), kv);
    }

    private Path fileOf(TargetKind kind, String id) {
        // Ids reaching here are checked by the admin handler to be [a-z0-9_-]+, so the name is safe.
        return dir.resolve(kind.label() + "-" + id + SUFFIX);
    }

    private void ensureDirectory() throws IOException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir.getParent());
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
    }

    private void syncDirectory() throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}

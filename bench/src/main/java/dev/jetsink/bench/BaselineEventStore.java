package dev.jetsink.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * The baseline peer of the benchmarks (docs/BENCHMARKS.md): the crash-safe store of the designs
 * jetsink replaces, one JSON file per event written as temp file, fsync, rename, directory fsync.
 * Thread-safe.
 */
final class BaselineEventStore {
    private final Path dir;

    BaselineEventStore(Path dir) throws IOException {
        this.dir = Files.createDirectories(dir);
    }

    /** Durably stores one event; returns once it would survive a power cut. */
    String put(String key, byte[] eventJson) throws IOException {
        String id = UUID.randomUUID().toString();
        Path tmp = dir.resolve(id + ".json.tmp");
        byte[] head = ("{\"key\":\"" + key + "\",\"event\":").getBytes(StandardCharsets.UTF_8);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer[] parts = {ByteBuffer.wrap(head), ByteBuffer.wrap(eventJson), ByteBuffer.wrap(new byte[] {'}'})};
            long total = head.length + eventJson.length + 1L;
            long written = 0;
            while (written < total) {
                written += ch.write(parts);
            }
            ch.force(true);
        }
        Files.move(tmp, dir.resolve(id + ".json"), StandardCopyOption.ATOMIC_MOVE);
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
        return id;
    }
}

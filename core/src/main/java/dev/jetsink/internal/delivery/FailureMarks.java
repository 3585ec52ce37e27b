package dev.jetsink.internal.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * For an ordered target, which objects had an event go to the failed store and up to which queue
 * sequence their later events follow it there (DESIGN.md "Order per object"), kept in the file
 * {@value #FILE} of the queue dir so a restart does not let those events out: one JSON line per
 * failure, appended and forced before the failed entry leaves the queue. Opening keeps only the
 * marks that can still matter (their bound at or past the oldest live entry) and rewrites the file
 * with them.
 */
final class FailureMarks {
    static final String FILE = "order-failures";
    private static final Logger log = LoggerFactory.getLogger(FailureMarks.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A failed event's mark: its object's entries queued up to {@code upTo} follow it, with {@code detail}. */
    record Mark(long upTo, String detail) {
    }

    private final Path file;

    private FailureMarks(Path file) {
        this.file = file;
    }

    /**
     * Opens the marks of {@code queueDir}, keeping those whose bound is at or past {@code oldestLive}
     * (the oldest live queue sequence) in {@code into}, the newest mark per object. A line that is not
     * a mark (a write cut short by a crash) is skipped: its failure's entry was still queued then,
     * and its next move writes the mark again.
     */
    static FailureMarks open(Path queueDir, long oldestLive, Map<String, Mark> into) {
        FailureMarks marks = new FailureMarks(queueDir.resolve(FILE));
        try {
            if (Files.exists(marks.file)) {
                List<String> lines = Files.readAllLines(marks.file, StandardCharsets.UTF_8);
                for (String line : lines) {
                    marks.read(line, oldestLive, into);
                }
                Path next = marks.file.resolveSibling(FILE + ".next");
                StringBuilder kept = new StringBuilder();
                into.forEach((key, m) -> kept.append(line(key, m)).append('\n'));
                Files.writeString(next, kept, StandardCharsets.UTF_8);
                try (FileChannel ch = FileChannel.open(next, StandardOpenOption.WRITE)) {
                    ch.force(true);
                }
                Files.move(next, marks.file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("order failures file " + marks.file, e);
        }
        return marks;
    }

    private void read(String line, long oldestLive, Map<String, Mark> into) {
        try {
            JsonNode n = JSON.readTree(line);
            if (n == null || !n.path("key").isTextual() || !n.path("up_to").canConvertToLong()) {
                throw new IOException("not a mark");
            }
            long upTo = n.path("up_to").asLong();
            String key = n.path("key").textValue();
            if (upTo >= oldestLive && upTo >= into.getOrDefault(key, new Mark(-1, "")).upTo()) {
                into.put(key, new Mark(upTo, n.path("detail").asText()));
            }
        } catch (IOException e) {
            log.warn("order failures file {}: skipped a line that is no mark", file.getFileName());
        }
    }

    /** Appends and forces the mark of an event of {@code key} that goes to the failed store now. */
    void add(String key, Mark mark) throws IOException {
        byte[] bytes = (line(key, mark) + "\n").getBytes(StandardCharsets.UTF_8);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.APPEND)) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(false);
        }
    }

    private static String line(String key, Mark mark) {
        ObjectNode n = JSON.createObjectNode();
        n.put("key", key);
        n.put("up_to", mark.upTo());
        n.put("detail", mark.detail());
        return n.toString();
    }
}

package dev.jetsink.bench;

import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.api.PublishAck;
import io.nats.client.impl.Headers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * The baseline peer of the drain benchmark (docs/BENCHMARKS.md "Backlog drain (JetStream path)"):
 * the anchors' design, one JSON file per event, drained by publishing each file synchronously with
 * its {@code Nats-Msg-Id}, waiting for the ack, then deleting the file.
 */
final class BaselinePeer {

    private static final String SUFFIX = ".json";
    private final Path dir;

    BaselinePeer(Path dir) throws IOException {
        this.dir = Files.createDirectories(dir);
    }

    /**
     * Writes one event file as the crash-safe store ({@link BaselineEventStore}, measured in the
     * enqueue benchmark) would leave it, without its fsyncs: fills a large
     * backlog for the drain measurement in seconds rather than minutes (the fill is not timed;
     * {@link #settle} flushes it to disk before the drain starts).
     */
    void place(long seq, String msgId, byte[] payload) throws IOException {
        Files.write(dir.resolve(String.format("%012d-%s", seq, msgId) + SUFFIX), payload, StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE);
    }

    /** Flushes everything {@link #place} wrote (the whole file system, as {@code sync} does). */
    static void settle() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("sync").inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IOException("sync exited with " + p.exitValue());
        }
    }

    /** Oldest first: publish, wait for the ack, delete. Returns how many files were delivered. */
    long drain(JetStream js, String subject) throws IOException, JetStreamApiException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).sorted().toList();
        }
        long delivered = 0;
        for (Path f : files) {
            String name = f.getFileName().toString();
            String msgId = name.substring(name.indexOf('-') + 1, name.length() - SUFFIX.length());
            Headers headers = new Headers().put("Nats-Msg-Id", msgId);
            PublishAck ack = js.publish(subject, headers, Files.readAllBytes(f));
            if (ack.getSeqno() <= 0) {
                throw new IllegalStateException("no sequence in ack for " + msgId);
            }
            Files.delete(f);
            delivered++;
        }
        return delivered;
    }
}

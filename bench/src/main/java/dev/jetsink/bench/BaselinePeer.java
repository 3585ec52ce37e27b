package dev.jetsink.bench;

import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.api.PublishAck;
import io.nats.client.impl.Headers;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * The baseline peer of SPEC §13 item 2: the anchors' crash-safe design, one JSON file per event
 * (written as temp + fsync + rename + directory fsync), drained by publishing each file
 * synchronously with its {@code Nats-Msg-Id}, waiting for the ack, then deleting the file.
 */
final class BaselinePeer {

    private static final String SUFFIX = ".json";
    private final Path dir;

    BaselinePeer(Path dir) throws IOException {
        this.dir = Files.createDirectories(dir);
    }

    /** Stores one event crash-safely; the file name carries its order and msg id. */
    void store(long seq, String msgId, byte[] payload) throws IOException {
        String name = String.format("%012d-%s", seq, msgId);
        Path tmp = dir.resolve(name + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer buf = ByteBuffer.wrap(payload);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
        Files.move(tmp, dir.resolve(name + SUFFIX), StandardCopyOption.ATOMIC_MOVE);
        // The rename is durable only once the directory entry is on disk.
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
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

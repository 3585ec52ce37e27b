package dev.jetsink.examples;

import dev.jetsink.Jetsink;
import dev.jetsink.Receipt;
import dev.jetsink.Sink;
import dev.jetsink.event.S3EventRecord;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * S3 bucket notifications through a notify sink, with a callback per event when the stream has
 * stored it. Usage: {@code NotifyWithReceipts <nats-url> <stream> <subject> <queue-dir> [events]};
 * the stream must exist and capture the subject.
 */
public final class NotifyWithReceipts {

    private NotifyWithReceipts() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: NotifyWithReceipts <nats-url> <stream> <subject> <queue-dir> [events]");
            System.exit(2);
        }
        int events = args.length > 4 ? Integer.parseInt(args[4]) : 10;
        System.exit(run(args[0], args[1], args[2], Path.of(args[3]), events, System.out));
    }

    /** Sends {@code events} notifications; returns 0 when every one was delivered. */
    static int run(String natsUrl, String stream, String subject, Path queueDir, int events, PrintStream out)
            throws Exception {
        AtomicInteger delivered = new AtomicInteger();
        try (Sink<S3EventRecord> sink = Jetsink.notifySink()
                .servers(natsUrl)
                .subject(subject)
                .jetStream(stream)
                .queueDir(queueDir)
                .build()) {
            sink.awaitReady(Duration.ofSeconds(30));          // a wrong address or an unsuitable stream fails here
            List<CompletableFuture<?>> acks = new ArrayList<>();
            for (int i = 0; i < events; i++) {
                S3EventRecord event = S3EventRecord.builder("s3:ObjectCreated:Put", "photos", "cat-" + i + ".jpg")
                    .size(1024 + i).contentType("image/jpeg").build();
                Receipt receipt = sink.send(event).join();   // durable in the local queue
                acks.add(receipt.delivered().thenAccept(d -> {  // stored by the stream
                    delivered.incrementAndGet();
                    out.println("delivered " + receipt.msgId() + " as " + d.stream() + "#" + d.streamSeq()
                        + (d.duplicate() ? " (duplicate)" : ""));
                }));
            }
            CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).join();
            boolean empty = sink.drain(Duration.ofSeconds(30));
            out.println("delivered " + delivered.get() + " of " + events + ", queue empty: " + empty);
            return delivered.get() == events && empty ? 0 : 1;
        }
    }
}

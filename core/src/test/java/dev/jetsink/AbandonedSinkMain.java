package dev.jetsink;

import dev.jetsink.event.S3EventRecord;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A program that builds a sink, sends one event and returns from {@code main} without closing the
 * sink, as a caller whose code threw on the way out would. {@link AbandonedSinkTest} runs it in a
 * JVM of its own and expects that JVM to exit.
 */
public final class AbandonedSinkMain {
    /** What the program prints just before {@code main} returns. */
    static final String RETURNING = "returning from main without close";

    private AbandonedSinkMain() {
    }

    /**
     * Builds the sink and leaves it open.
     *
     * @param args the server URL; the queue directory; {@code jetstream <stream>} (waits until the
     *     stream holds the event), {@code core} (waits until it is published) or {@code unreached}
     *     (only queues it: the server is not expected to answer)
     * @throws Exception when the sink cannot be built or the event does not get as far as expected
     */
    public static void main(String[] args) throws Exception {
        SinkBuilder<S3EventRecord> builder = Jetsink.notifySink().servers(args[0]).subject("app.events")
            .queueDir(Path.of(args[1]));
        if (args[2].equals("jetstream")) {
            builder.jetStream(args[3]);
        }
        Sink<S3EventRecord> sink = builder.build();
        Receipt receipt = sink.send(S3EventRecord.builder("s3:ObjectCreated:Put", "photos", "left.jpg").build())
            .get(30, TimeUnit.SECONDS);
        if (!args[2].equals("unreached")) {
            receipt.delivered().get(30, TimeUnit.SECONDS);
        }
        System.out.println(RETURNING);
    }
}

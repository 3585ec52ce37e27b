package dev.jetsink;

import dev.jetsink.event.S3EventRecord;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A program that builds a sink, queues one event and returns from {@code main} without closing
 * it, as a caller whose code threw would. {@link SinkReadinessTest} runs it in its own JVM.
 */
public final class AbandonedSinkMain {
    private AbandonedSinkMain() {
    }

    /**
     * Builds the sink and leaves it open.
     *
     * @param args the server URL, the queue directory
     * @throws Exception when the sink cannot be built or the event is not queued
     */
    public static void main(String[] args) throws Exception {
        Sink<S3EventRecord> sink = Jetsink.notifySink().servers(args[0]).subject("app.events").jetStream("SINK")
            .queueDir(Path.of(args[1])).build();
        sink.send(S3EventRecord.builder("s3:ObjectCreated:Put", "photos", "left.jpg").build()).get(30, TimeUnit.SECONDS);
        System.out.println("queued, returning without close");
    }
}

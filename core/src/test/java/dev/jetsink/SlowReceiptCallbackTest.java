package dev.jetsink;

import dev.jetsink.event.S3EventRecord;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stage a caller chains onto a send runs on the sink's receipts thread, never on the queue's
 * writer while it holds its lock (DESIGN.md "The library front door"): while one such stage blocks for 2 s,
 * four producers keep sending and the stream keeps growing with events queued after the stage began.
 * Waiting for a receipt on that thread, which would never end, is refused with a clear error.
 */
class SlowReceiptCallbackTest extends ServerTestBase {
    private static final String STREAM = "SLOW";
    private static final String SUBJECT = "app.slow";
    private static final Duration BLOCK = Duration.ofSeconds(2);
    private static final int PRODUCERS = 4;

    @Test
    void aTwoSecondCallbackOnOneSendHoldsUpNeitherTheQueueNorTheStream() throws Exception {
        Streams.create(admin, StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofMinutes(5)).build());
        try (Sink<S3EventRecord> sink = Jetsink.notifySink().servers(server.url()).subject(SUBJECT).jetStream(STREAM)
                .queueDir(queue).build()) {
            sink.awaitReady(AWAIT);
            AtomicBoolean producing = new AtomicBoolean(true);
            AtomicInteger sent = new AtomicInteger();
            List<CompletableFuture<Receipt>> receipts = new ArrayList<>();
            List<Thread> producers = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                int producer = p;
                Thread t = new Thread(() -> {
                    List<CompletableFuture<Receipt>> mine = new ArrayList<>();
                    for (int i = 0; producing.get(); i++) {
                        // these producers do not wait for receipts: they pace themselves at about 1 000/s each
                        mine.add(sink.send(event("p" + producer + "-" + i)));
                        sent.incrementAndGet();
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                    }
                    synchronized (receipts) {
                        receipts.addAll(mine);
                    }
                }, "producer-" + p);
                t.start();
                producers.add(t);
            }

            CountDownLatch blocking = new CountDownLatch(1);
            AtomicReference<String> stageThread = new AtomicReference<>();
            long[] during = new long[3];
            Function<Receipt, Receipt> slowStage = receipt -> {
                stageThread.set(Thread.currentThread().getName());
                during[0] = Streams.state(admin, STREAM).getMsgCount();
                during[1] = sink.queueLength();
                blocking.countDown();
                LockSupport.parkNanos(BLOCK.toNanos());
                during[2] = Streams.state(admin, STREAM).getMsgCount();
                return receipt;
            };
            CompletableFuture<Receipt> chained = onReceiptsThread(sink, sent, receiptsThread -> {
                // sent from the receipts thread, this send cannot complete before the stage returns:
                // the slow stage is chained on a send certainly still in flight
                sent.incrementAndGet();
                return sink.send(event("slow")).thenApply(slowStage);
            });
            assertThat(blocking.await(AWAIT.toSeconds(), TimeUnit.SECONDS)).as("the slow stage began").isTrue();
            chained.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
            producing.set(false);
            for (Thread t : producers) {
                t.join();
            }

            long grew = during[2] - during[0];
            System.out.printf("stream grew by %d events (%.0f/s) during the %d s callback; %d were queued when it began%n",
                grew, grew / (double) BLOCK.toSeconds(), BLOCK.toSeconds(), during[1]);
            assertThat(stageThread.get()).as("the chained stage's thread").startsWith("jetsink-receipts-");
            assertThat(grew).as("stored while the callback blocked, beyond what was queued when it began")
                .isGreaterThan(during[1]).isGreaterThanOrEqualTo(100);

            CompletableFuture.allOf(receipts.toArray(CompletableFuture[]::new)).get(AWAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(sink.drain(AWAIT)).isTrue();
            assertThat(Streams.state(admin, STREAM).getMsgCount()).as("every send stored once").isEqualTo((long) sent.get());
        }
    }

    @Test
    void waitingForAReceiptOnTheReceiptsThreadIsRefusedInsteadOfDeadlocking() throws Exception {
        Streams.create(admin, StreamSpec.of(STREAM, SUBJECT).duplicateWindow(Duration.ofMinutes(5)).build());
        try (Sink<S3EventRecord> sink = Jetsink.notifySink().servers(server.url()).subject(SUBJECT).jetStream(STREAM)
                .queueDir(queue).build()) {
            sink.awaitReady(AWAIT);
            CompletableFuture<Object> waited = onReceiptsThread(sink, new AtomicInteger(), receiptsThread -> {
                try {
                    return CompletableFuture.<Object>completedFuture(sink.send(event("waited-for")).join());
                } catch (RuntimeException e) {
                    return CompletableFuture.<Object>completedFuture(e);
                }
            });
            assertThat(waited.get(AWAIT.toSeconds(), TimeUnit.SECONDS))
                .isInstanceOfSatisfying(IllegalStateException.class, e -> assertThat(e.getMessage())
                    .contains("receipts thread").contains("thenCompose"));

            Receipt chained = sink.send(event("first")).thenCompose(receipt -> sink.send(event("chained")))
                .get(AWAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(chained.delivered().get(AWAIT.toSeconds(), TimeUnit.SECONDS).stream()).isEqualTo(STREAM);
        }
    }

    /**
     * Runs {@code work} in a stage on the sink's receipts thread and returns what it returned. A stage
     * chained on a send that completed before the chaining runs on this thread instead; then the
     * send is repeated ({@code sends} counts every one).
     */
    private static <T> CompletableFuture<T> onReceiptsThread(Sink<S3EventRecord> sink, AtomicInteger sends,
            Function<String, CompletableFuture<T>> work) throws Exception {
        for (int attempt = 0; ; attempt++) {
            sends.incrementAndGet();
            CompletableFuture<T> done = sink.send(event("carrier-" + attempt)).thenApply(receipt ->
                Thread.currentThread().getName().startsWith("jetsink-receipts-")
                    ? work.apply(Thread.currentThread().getName()) : null)
                .get(AWAIT.toSeconds(), TimeUnit.SECONDS);
            if (done != null) {
                return done;
            }
        }
    }

    private static S3EventRecord event(String key) {
        return S3EventRecord.builder("s3:ObjectCreated:Put", "photos", key).build();
    }
}

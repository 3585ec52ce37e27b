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
            CompletableFuture<Receipt> slow;
            do {
                // a send still in flight, so the stage is chained before the receipt exists
                slow = sink.send(event("slow-" + sent.incrementAndGet()));
            } while (slow.isDone());
            CompletableFuture<Receipt> chained = slow.thenApply(receipt -> {
                stageThread.set(Thread.currentThread().getName());
                during[0] = Streams.state(admin, STREAM).getMsgCount();
                during[1] = sink.queueLength();
                blocking.countDown();
                LockSupport.parkNanos(BLOCK.toNanos());
                during[2] = Streams.state(admin, STREAM).getMsgCount();
                return receipt;
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
            CompletableFuture<Receipt> first;
            int n = 0;
            do {
                first = sink.send(event("first-" + n++));
            } while (first.isDone());
            CompletableFuture<Object> waited = first.handle((receipt, failure) -> {
                try {
                    return sink.send(event("waited-for")).join();
                } catch (RuntimeException e) {
                    return e;
                }
            });
            assertThat(waited.get(AWAIT.toSeconds(), TimeUnit.SECONDS))
                .isInstanceOfSatisfying(IllegalStateException.class, e -> assertThat(e.getMessage())
                    .contains("receipts thread").contains("thenCompose"));

            Receipt chained = first.thenCompose(receipt -> sink.send(event("chained")))
                .get(AWAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(chained.delivered().get(AWAIT.toSeconds(), TimeUnit.SECONDS).stream()).isEqualTo(STREAM);
        }
    }

    private static S3EventRecord event(String key) {
        return S3EventRecord.builder("s3:ObjectCreated:Put", "photos", key).build();
    }
}

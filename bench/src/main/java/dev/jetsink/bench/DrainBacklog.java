package dev.jetsink.bench;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.targets.NatsTarget;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The backlog a drain round starts from: {@code n} events of {@link #EVENT_BYTES} bytes about
 * objects of one bucket, queued before the target starts.
 *
 * @param kind    the target's kind
 * @param objects how many objects the events are about: 0 for one object each (keys spread), 1 for
 *                a single hot object, k for event i about object {@code i % k}
 */
record DrainBacklog(TargetKind kind, int objects) {
    /** Bytes of one event. */
    static final int EVENT_BYTES = 1024;
    private static final int FILLERS = 8;
    /**
     * Rounds fill the queue with events numbered from 0 again; the round makes them distinct
     * events, as a store's would be, so content-derived msg ids do not match an earlier round's
     * inside the stream's duplicate window.
     */
    private static final AtomicLong ROUND = new AtomicLong();

    /** A new round: its events differ from every earlier round's. */
    static void nextRound() {
        ROUND.incrementAndGet();
    }

    /** Event {@code i}: a 1 KiB JSON event. */
    OutboundEvent event(int i) {
        String object = "obj-" + (objects == 0 ? i : i % objects);
        String head = "{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"bench/" + object + "\",\"n\":" + i
            + ",\"round\":" + ROUND.get() + ",\"pad\":\"";
        String json = head + "x".repeat(EVENT_BYTES - head.length() - 2) + "\"}";
        return new OutboundEvent(new EventMetadata(kind, "bench", object, "s3:ObjectCreated:Put",
            "application/json"), json.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Queues events 0..n-1 from {@link #FILLERS} threads, each waiting for its own appends every 4 096:
     * one thread alone finds the writer idle before most appends and forces each itself (about
     * 6 000 events/s here, minutes for a long round); several keep the writer's batches full. With
     * one object, one thread, so the queue holds the events in their order.
     */
    void fill(NatsTarget target, int n) throws InterruptedException {
        int fillers = objects == 0 ? FILLERS : 1;
        List<Thread> threads = new ArrayList<>();
        AtomicLong failures = new AtomicLong();
        for (int f = 0; f < fillers; f++) {
            int first = f;
            Thread t = new Thread(() -> {
                List<CompletableFuture<?>> batch = new ArrayList<>();
                for (int i = first; i < n; i += fillers) {
                    batch.add(target.enqueue(event(i)));
                    if (batch.size() == 4096 || i + fillers >= n) {
                        try {
                            CompletableFuture.allOf(batch.toArray(CompletableFuture[]::new)).join();
                        } catch (RuntimeException e) {
                            failures.incrementAndGet();
                        }
                        batch.clear();
                    }
                }
            }, "drain-bench-fill-" + f);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failures.get() > 0) {
            throw new IllegalStateException(failures.get() + " batches of the fill failed");
        }
    }
}

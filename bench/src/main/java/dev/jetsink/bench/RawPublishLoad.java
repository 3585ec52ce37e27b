package dev.jetsink.bench;

import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.PublishOptions;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The broker's limit for the ingest work: jnats {@code publishAsync} of one payload, each with its
 * own {@code Nats-Msg-Id}, at most {@link #WINDOW} unacknowledged, for a fixed time.
 */
final class RawPublishLoad {

    static final int WINDOW = 1024;

    private RawPublishLoad() {
    }

    /**
     * @param acked acknowledged publishes
     * @param seconds from the first publish to the last ack
     */
    record Result(long acked, long errors, double seconds, double cpuPressurePct) {
        double eventsPerSecond() {
            return acked / seconds;
        }

        String summary() {
            return String.format("%.0f events/s (%d acked in %.1f s, %d errors, window %d), cpu pressure %.1f %%",
                eventsPerSecond(), acked, seconds, errors, WINDOW, cpuPressurePct);
        }
    }

    static Result run(Connection nats, String subject, byte[] payload, Duration duration) throws Exception {
        JetStream js = nats.jetStream();
        String run = UUID.randomUUID().toString();
        Semaphore window = new Semaphore(WINDOW);
        AtomicLong acked = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        CpuPressure before = CpuPressure.sample();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        for (long i = 0; System.nanoTime() < end; i++) {
            if (!window.tryAcquire(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no publish acknowledged within 10 s");
            }
            js.publishAsync(subject, payload, PublishOptions.builder().messageId(run + "-" + i).build())
                .whenComplete((ack, t) -> {
                    (t == null ? acked : errors).incrementAndGet();
                    window.release();
                });
        }
        if (!window.tryAcquire(WINDOW, 30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("publishes still unacknowledged after 30 s");
        }
        double secs = (System.nanoTime() - start) / 1e9;
        return new Result(acked.get(), errors.get(), secs,
            CpuPressure.sample().percentSince(before).orElse(-1));
    }
}

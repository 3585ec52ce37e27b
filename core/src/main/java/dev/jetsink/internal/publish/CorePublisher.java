package dev.jetsink.internal.publish;

import dev.jetsink.PayloadFormat;
import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.internal.time.Deadline;
import io.nats.client.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The NATS Core path (DESIGN.md "Delivery"): publish each entry of a fill, then one flush bounded
 * by 30 s; every entry of the fill is delivered when the flush returns.
 */
public final class CorePublisher implements Publisher {

    private static final Duration FLUSH_BOUND = Duration.ofSeconds(30);

    private final TargetConnection link;
    private final EntrySubjects subjects;
    private final List<CompletableFuture<Delivered>> fill = new ArrayList<>();
    private Connection fillConnection;

    private final PayloadFormat format;
    private final Tracing tracing;
    private final String target;

    public CorePublisher(TargetConnection link, EntrySubjects subjects, PayloadFormat format, Tracing tracing,
                         String target) {
        this.format = format;
        this.tracing = tracing;
        this.target = target;
        this.link = link;
        this.subjects = subjects;
    }

    @Override
    public void prepare(Deadline deadline) throws Exception {
        fillConnection = link.await(deadline);
    }

    @Override
    public CompletableFuture<Delivered> publish(QueuedEntry entry, long keySequence, byte[] payload, Deadline deadline) {
        // Throws IllegalArgumentException for an event over the server's max_payload: the
        // dispatcher reschedules that entry alone (entry-specific).
        QueuedEntry e = entry;
        String to = subjects.of(e);
        Tracing.Span span = tracing.publish(target, to, e.msgId(), e.attributes().traceparent(), e.attributes().tracestate());
        try {
            fillConnection.publish(to, MessageHeaders.of(format, e.metadata(), e.attributes(), span, keySequence), payload);
        } catch (RuntimeException failure) {
            span.end(failure);
            throw failure;
        }
        CompletableFuture<Delivered> f = new CompletableFuture<>();
        f.whenComplete((d, failure) -> span.end(failure));
        fill.add(f);
        return f;
    }

    @Override
    public void endFill(Deadline deadline) {
        if (fill.isEmpty()) {
            return;
        }
        List<CompletableFuture<Delivered>> done = List.copyOf(fill);
        fill.clear();
        Duration bound = deadline.remaining().compareTo(FLUSH_BOUND) < 0 ? deadline.remaining() : FLUSH_BOUND;
        try {
            fillConnection.flush(bound.isZero() ? Duration.ofMillis(1) : bound);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            done.forEach(f -> f.completeExceptionally(e));
            return;
        }
        done.forEach(f -> f.complete(Delivered.CORE));
    }

    @Override
    public void close() {
        fill.forEach(f -> f.completeExceptionally(new IllegalStateException("target closed")));
        fill.clear();
    }
}

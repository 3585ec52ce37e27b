package dev.jetsink.internal.publish;

import dev.jetsink.PayloadFormat;
import dev.jetsink.TraceContext;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.time.Deadline;
import io.nats.client.Connection;
import java.time.Duration;
import java.util.Optional;

/**
 * A target without a queue dir publishes in the caller's path (Core only, DESIGN.md "Delivery"):
 * connect, publish, flush, each bounded by 30 s. Nothing is kept: a failure is the caller's to
 * retry.
 */
public final class DirectPublish {
    private static final Duration BOUND = Duration.ofSeconds(30);

    private final TargetConnection link;
    private final EntrySubjects subjects;
    private final PayloadFormat format;
    private final Tracing tracing;
    private final String target;

    public DirectPublish(TargetConnection link, EntrySubjects subjects, PayloadFormat format, Tracing tracing,
                         String target) {
        this.format = format;
        this.link = link;
        this.subjects = subjects;
        this.tracing = tracing;
        this.target = target;
    }

    /** Publishes {@code event} and waits for the flush. */
    public void publish(OutboundEvent event) throws Exception {
        Connection c = link.await(Deadline.after(BOUND));
        String subject = subjects.toStore(event.metadata()).orElse(subjects.template().text());
        Optional<String> traceparent = event.trace().map(TraceContext::traceparent);
        Optional<String> tracestate = event.trace().flatMap(TraceContext::tracestate);
        Tracing.Span span = tracing.publish(target, subject, "", traceparent, tracestate);
        try {
            boolean own = span.traceparent().isPresent();
            c.publish(subject, MessageHeaders.of(format, event.metadata(), own ? span.traceparent() : traceparent,
                own ? span.tracestate() : tracestate, event.cloudEvent()), event.payload());
            c.flush(BOUND);
            span.end(null);
        } catch (Exception e) {
            span.end(e);
            throw e;
        }
    }
}

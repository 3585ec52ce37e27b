package dev.jetsink.internal.targets;

import dev.jetsink.MsgIdMode;
import dev.jetsink.OrderMode;
import dev.jetsink.PayloadFormat;
import dev.jetsink.QueueFullException;
import dev.jetsink.QueueStoreException;
import dev.jetsink.TargetUnavailableException;
import dev.jetsink.TraceContext;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.lang.Failures;
import dev.jetsink.internal.delivery.Dispatcher;
import dev.jetsink.internal.event.CloudEventAttributes;
import dev.jetsink.internal.event.MessageFormats;
import dev.jetsink.internal.event.OrderKeys;
import dev.jetsink.internal.event.MsgIds;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.publish.DirectPublish;
import dev.jetsink.internal.publish.EntrySubjects;
import dev.jetsink.internal.publish.Tracing;
import dev.jetsink.internal.queue.DeferredQueue;
import dev.jetsink.internal.queue.EntryAttributes;
import dev.jetsink.internal.queue.QueueStore;
import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.internal.queue.Reservation;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way an event enters a target (DESIGN.md "The way in"), for the library's
 * {@code Sink.send} and the daemon's HTTP ingest alike: {@link #admit} holds room for a known number
 * of events (so a request addressed to several targets is all-or-nothing), and
 * {@link Admission#append} gives each event its msg id, subject and trace context and queues it
 * durably. {@link #checkRoom} answers before a body is read, reserving nothing. Every refusal is
 * counted in {@code failed_messages}; {@link #wouldRefuse} counts nothing, for probes.
 */
public final class Intake {

    private static final Logger log = LoggerFactory.getLogger(Intake.class);

    private final String target;
    private final TargetKind kind;
    private final String targetId;
    private final MsgIdMode msgIdMode;
    private final PayloadFormat format;
    private final OrderMode order;
    private final long queueLimit;
    private final Optional<QueueStore> queue;
    private final Optional<DirectPublish> direct;
    private final Optional<Dispatcher> dispatcher;
    private final EntrySubjects subjects;
    private final Tracing tracing;
    private final TargetCounters counters;
    private volatile Optional<String> initFailure = Optional.empty();

    Intake(String target, TargetKind kind, String targetId, MsgIdMode msgIdMode, PayloadFormat format, OrderMode order,
           long queueLimit, Optional<QueueStore> queue, Optional<DirectPublish> direct, Optional<Dispatcher> dispatcher,
           EntrySubjects subjects, Tracing tracing, TargetCounters counters) {
        this.target = target;
        this.kind = kind;
        this.targetId = targetId;
        this.msgIdMode = msgIdMode;
        this.format = format;
        this.order = order;
        this.queueLimit = queueLimit;
        this.queue = queue;
        this.direct = direct;
        this.dispatcher = dispatcher;
        this.subjects = subjects;
        this.tracing = tracing;
        this.counters = counters;
    }

    /** While set, the target takes no events: its init failed (a sealed stream). */
    void initFailed(Optional<String> reason) {
        initFailure = reason;
    }

    Optional<String> initFailure() {
        return initFailure;
    }

    /** Why the target takes no events now: its init failed, or its queue directory cannot be opened. */
    Optional<String> unavailable() {
        Optional<String> init = initFailure;
        return init.isPresent() ? init
            : queue.flatMap(DeferredQueue::unavailable).map(r -> "queue directory unavailable: " + r);
    }

    private Optional<TargetUnavailableException> refusal() {
        Optional<String> init = initFailure;
        TargetUnavailableException.Reason reason = init.isPresent() ? TargetUnavailableException.Reason.INIT_FAILED
            : TargetUnavailableException.Reason.QUEUE_DIRECTORY_UNAVAILABLE;
        return unavailable().map(r -> new TargetUnavailableException(reason, "target unavailable: " + r));
    }

    /**
     * Checks that {@code n} events would be taken now, reserving nothing: the answer a request gets
     * before its body is read. A refusal is counted and logged as an admission's would be.
     *
     * @throws TargetUnavailableException while init has failed or the queue directory is unavailable
     * @throws QueueFullException when {@code n} more would exceed {@code queue_limit}
     * @throws QueueStoreException when the queue is closed
     */
    public void checkRoom(int n) {
        gate(n);
        queue.ifPresent(q -> room(() -> q.checkRoom(n), n));
    }

    /**
     * Holds room for {@code n} events; the caller appends through the admission and closes it
     * (room not used is given back). A target without a queue dir holds no room: its appends
     * publish directly.
     *
     * @throws TargetUnavailableException while init has failed or the queue directory is unavailable
     * @throws QueueFullException when {@code n} more would exceed {@code queue_limit}
     * @throws QueueStoreException when the queue is closed
     */
    public Admission admit(int n) {
        gate(n);
        if (queue.isEmpty()) {
            return new Admission(Optional.empty());
        }
        Reservation[] held = new Reservation[1];
        room(() -> held[0] = queue.get().reserve(n), n);
        return new Admission(Optional.of(held[0]));
    }

    /**
     * Queues one event (a target with a queue dir): completes with the entry (its sequence and msg
     * id) once it is durable. Every refusal is in the returned future, an event too large to be
     * stored ({@link IllegalArgumentException}) too.
     */
    public CompletableFuture<QueuedEntry> enqueue(OutboundEvent event) {
        if (queue.isEmpty()) {
            throw new IllegalStateException(target + " has no queue dir");
        }
        try (Admission a = admit(1)) {
            return a.appendQueued(event);
        } catch (QueueStoreException e) {
            counters.writeFailed(1, e);
            return CompletableFuture.failedFuture(e);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Why this target would refuse one more event now, or empty when it would take it. A NATS outage
     * is no reason: the queue absorbs it. Counts nothing and logs nothing, so a readiness probe may
     * ask as often as it likes.
     */
    public Optional<String> wouldRefuse() {
        Optional<String> unavailable = unavailable();
        if (unavailable.isPresent()) {
            return Optional.of("target unavailable: " + unavailable.get());
        }
        try {
            queue.ifPresent(q -> q.checkRoom(1));
            return Optional.empty();
        } catch (QueueFullException e) {
            return Optional.of("queue full: at queue_limit " + e.limit());
        } catch (QueueStoreException e) {
            return Optional.of("queue closed");
        }
    }

    private void gate(int n) {
        Optional<TargetUnavailableException> refusal = refusal();
        if (refusal.isPresent()) {
            counters.refused(n);
            throw refusal.get();
        }
    }

    private void room(Runnable check, int n) {
        try {
            check.run();
        } catch (QueueFullException e) {
            counters.refused(n);
            log.error("queue full, event rejected at ingest target=\"{}\" queue_limit={} events={}",
                target, queueLimit, n);
            throw e;
        }
    }

    /**
     * Room held on the target for {@code n} events (none on the direct path). Not thread-safe: one
     * caller appends its events, then closes it.
     */
    public final class Admission implements AutoCloseable {
        private final Optional<Reservation> reservation;

        private Admission(Optional<Reservation> reservation) {
            this.reservation = reservation;
        }

        /**
         * Appends one event on an admitted slot. Completes once it is durably queued (or published,
         * on the direct path); fails with what refused it, counted as an ingest rejection. Never
         * throws.
         */
        public CompletableFuture<Void> append(OutboundEvent event) {
            if (reservation.isEmpty()) {
                return publishDirect(event);
            }
            try {
                return appendQueued(event).thenApply(entry -> null);
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }

        CompletableFuture<QueuedEntry> appendQueued(OutboundEvent given) {
            OutboundEvent event;
            Optional<String> orderKey;
            try {
                // the key is read from the envelope, before a format makes it something else
                orderKey = order == OrderMode.KEY ? Optional.of(OrderKeys.of(given)) : Optional.empty();
                event = MessageFormats.apply(format, given);
            } catch (RuntimeException e) {
                counters.refused(1);
                throw e;
            }
            Tracing.Span span = tracing.enqueue(target, event.metadata(), event.trace().map(TraceContext::traceparent),
                event.trace().flatMap(TraceContext::tracestate));
            CompletableFuture<QueuedEntry> appended;
            try {
                appended = reservation.orElseThrow().append(event.metadata(), event.payload(),
                    MsgIds.forEvent(event, msgIdMode, kind, targetId), attributesOf(event, span).withOrderKey(orderKey));
            } catch (RuntimeException e) {
                span.end(e);
                counters.refused(1);
                throw e;
            }
            return appended.handle((entry, failure) -> {
                span.end(failure);
                if (failure != null) {
                    Throwable cause = Failures.unwrap(failure);
                    counters.writeFailed(1, cause);
                    throw new CompletionException(cause);
                }
                counters.accepted(entry);
                dispatcher.ifPresent(Dispatcher::wake);
                return entry;
            });
        }

        private CompletableFuture<Void> publishDirect(OutboundEvent event) {
            try {
                direct.orElseThrow().publish(MessageFormats.apply(format, event));
                counters.accepted(null);
                return CompletableFuture.completedFuture(null);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                counters.refused(1);
                return CompletableFuture.failedFuture(e);
            } catch (Exception e) {
                counters.refused(1);
                return CompletableFuture.failedFuture(e);
            }
        }

        /** Gives back the room not used. Idempotent. */
        @Override
        public void close() {
            reservation.ifPresent(Reservation::close);
        }
    }

    /**
     * What the queue stores with {@code event} besides its msg id: its resolved subject and trace
     * context (the enqueue span's when one records, else the event's own).
     */
    private EntryAttributes attributesOf(OutboundEvent event, Tracing.Span span) {
        EntryAttributes a = EntryAttributes.NONE.withSubject(subjects.toStore(event.metadata()))
            .withCloudEvent(CloudEventAttributes.toJson(event.cloudEvent()));
        if (span.traceparent().isPresent()) {
            return a.withTrace(span.traceparent(), span.tracestate());
        }
        return a.withTrace(event.trace().map(TraceContext::traceparent), event.trace().flatMap(TraceContext::tracestate));
    }
}

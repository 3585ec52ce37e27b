package dev.jetsink.server.ingest;

import dev.jetsink.QueueFullException;
import dev.jetsink.QueueStoreException;
import dev.jetsink.TargetUnavailableException;
import dev.jetsink.TraceContext;
import dev.jetsink.event.MalformedEventException;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventParser;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.lang.Failures;
import dev.jetsink.internal.queue.QueueStore;
import dev.jetsink.internal.targets.Intake;
import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.internal.targets.Targets;
import dev.jetsink.internal.time.LogThrottle;
import dev.jetsink.server.http.HttpJson;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpFields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a request body addressed to all targets of a kind, or to one, and queues its events on
 * every addressed target, all or nothing (DESIGN.md "Daemon"): the body is parsed completely, then room is
 * admitted on every target, and only then is anything appended. The answer comes after every
 * append is durable. A CloudEvent sent over HTTP keeps its attributes with each event
 * ({@link IncomingCloudEvent}).
 */
public final class Ingest {

    private static final Logger log = LoggerFactory.getLogger(Ingest.class);
    /** Retry-After for a full queue or a failed write: short, the dispatcher is draining. */
    public static final Duration RETRY_SOON = Duration.ofSeconds(5);
    /** Retry-After for a target whose init failed: it retries every 60 s. */
    static final Duration RETRY_INIT = Duration.ofSeconds(60);
    /** Upper bound on waiting for fsync; a disk that hangs longer is answered 503. */
    private static final Duration DURABLE_BOUND = Duration.ofSeconds(30);

    private final Map<TargetKind, Targets> targets;
    /** A full disk fails every request: one error line per 10 s says how many. */
    private final LogThrottle writeFailures;

    public Ingest(Map<TargetKind, Targets> targets, Clock clock) {
        this.targets = Map.copyOf(targets);
        this.writeFailures = new LogThrottle(clock, LogThrottle.TEN_SECONDS);
    }

    /**
     * The refusal a request gets before its body is read, when one is certain already: no such
     * target, a target whose init failed, or a queue at its limit. Senders such as Ceph RGW retry a
     * refused request every few tens of milliseconds, so this answer must cost no body read and
     * no parse. Each such refusal counts one event in {@code failed_messages} (the body's events
     * are unknown).
     */
    Optional<IngestResult.Rejected> refusalBeforeBody(TargetKind kind, Optional<String> id) {
        List<NatsTarget> addressed = addressed(kind, id);
        if (addressed.isEmpty()) {
            return Optional.of(unknown(kind, id));
        }
        for (NatsTarget t : addressed) {
            try {
                t.intake().checkRoom(1);
            } catch (QueueFullException e) {
                return Optional.of(IngestResult.Rejected.retryLater(
                    "queue full: " + t.displayId() + " is at queue_limit " + e.limit(), RETRY_SOON));
            } catch (TargetUnavailableException e) {
                return Optional.of(IngestResult.Rejected.retryLater(e.getMessage(), RETRY_INIT));
            } catch (QueueStoreException e) {
                return Optional.empty(); // the full path below reports it
            }
        }
        return Optional.empty();
    }

    private static IngestResult.Rejected unknown(TargetKind kind, Optional<String> id) {
        return IngestResult.Rejected.of(404, id.map(i -> "unknown " + kind.label() + " target: " + HttpJson.quote(i))
            .orElse("no " + kind.label() + " NATS target is enabled"));
    }

    /**
     * Queues {@code body} on the targets of {@code kind} (all of them, or the one named {@code id}).
     * The result completes when every append is durable (on the queue writer's thread; no request
     * thread waits for the fsync) or is refused; it never completes exceptionally. Every event of
     * the body carries {@code trace}, the request's W3C trace context.
     */
    CompletableFuture<IngestResult> accept(TargetKind kind, Optional<String> id, byte[] body, HttpFields headers,
                                           Optional<TraceContext> trace) {
        List<NatsTarget> addressed = addressed(kind, id);
        if (addressed.isEmpty()) {
            return CompletableFuture.completedFuture(unknown(kind, id));
        }
        List<OutboundEvent> events;
        try {
            IncomingCloudEvent cloudEvent = IncomingCloudEvent.of(headers, body);
            events = EventParser.forKind(kind).parse(cloudEvent.body());
            checkMetadata(events);
            if (trace.isPresent()) {
                events = events.stream().map(e -> e.withTrace(trace)).toList();
            }
            if (!cloudEvent.attributes().isEmpty()) {
                List<OutboundEvent> kept = new ArrayList<>(events.size());
                for (int n = 0; n < events.size(); n++) {
                    kept.add(events.get(n).withCloudEvent(cloudEvent.forEvent(n, events.size())));
                }
                events = kept;
            }
        } catch (MalformedEventException e) {
            // The message never quotes body content (MalformedEventException), so it is safe to log.
            log.warn("ingest rejected a malformed body kind={} target={} error=\"{}\"", kind.label(),
                id.map(HttpJson::quote).orElse("*"), e.getMessage());
            return CompletableFuture.completedFuture(
                IngestResult.Rejected.of(400, "malformed " + kind.label() + " body: " + e.getMessage()));
        }
        List<Intake.Admission> admitted = new ArrayList<>(addressed.size());
        String current = "";
        try {
            for (NatsTarget t : addressed) {
                current = t.displayId();
                admitted.add(t.intake().admit(events.size()));
            }
            return appendAll(admitted, events);
        } catch (QueueFullException e) {
            return CompletableFuture.completedFuture(IngestResult.Rejected.retryLater(
                "queue full: " + current + " is at queue_limit " + e.limit(), RETRY_SOON));
        } catch (TargetUnavailableException e) {
            return CompletableFuture.completedFuture(IngestResult.Rejected.retryLater(e.getMessage(), RETRY_INIT));
        } catch (QueueStoreException e) {
            log.error("ingest refused, queue unavailable kind={} error=\"{}\"", kind.label(), e.getMessage());
            return CompletableFuture.completedFuture(IngestResult.Rejected.retryLater("queue unavailable", RETRY_SOON));
        } finally {
            admitted.forEach(Intake.Admission::close);
        }
    }

    private List<NatsTarget> addressed(TargetKind kind, Optional<String> id) {
        Targets all = targets.get(kind);
        if (all == null) {
            return List.of();
        }
        return id.map(i -> all.target(i).map(List::of).orElse(List.of())).orElse(all.targets());
    }

    private CompletableFuture<IngestResult> appendAll(List<Intake.Admission> admitted, List<OutboundEvent> events) {
        List<CompletableFuture<Void>> pending = new ArrayList<>(admitted.size() * events.size());
        for (Intake.Admission a : admitted) {
            for (OutboundEvent e : events) {
                pending.add(a.append(e));
            }
        }
        CompletableFuture<Void> all = pending.size() == 1 ? pending.get(0)
            : CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new));
        return all.orTimeout(DURABLE_BOUND.toMillis(), TimeUnit.MILLISECONDS).handle((ok, failure) -> {
            if (failure == null) {
                return new IngestResult.Accepted(events.size());
            }
            Throwable cause = Failures.unwrap(failure);
            if (cause instanceof TimeoutException) {
                log.error("ingest timed out waiting for the queue to be durable after {} s", DURABLE_BOUND.toSeconds());
                return IngestResult.Rejected.retryLater("queue write timed out", RETRY_SOON);
            }
            long held = writeFailures.admit();
            if (held >= 0) {
                log.error("ingest failed to queue durably, sender should retry error=\"{}\" (same failure {} more time(s)"
                    + " in the last {} s)", cause.getClass().getSimpleName() + ": " + cause.getMessage(), held,
                    LogThrottle.TEN_SECONDS.toSeconds());
            }
            return IngestResult.Rejected.retryLater("queue write failed", RETRY_SOON);
        });
    }

    // Refused up front (the queue's own rule) instead of failing half way through the appends.
    private static void checkMetadata(List<OutboundEvent> events) throws MalformedEventException {
        for (int i = 0; i < events.size(); i++) {
            try {
                QueueStore.checkStorable(events.get(i).metadata());
            } catch (IllegalArgumentException e) {
                throw new MalformedEventException("event " + (i + 1) + ": " + e.getMessage());
            }
        }
    }
}

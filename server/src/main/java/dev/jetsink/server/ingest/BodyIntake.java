package dev.jetsink.server.ingest;

import dev.jetsink.TraceContext;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventParser;
import dev.jetsink.server.http.BodyBudget;
import dev.jetsink.server.http.BodyReader;
import dev.jetsink.server.http.HttpJson;
import dev.jetsink.server.http.RequestDeadlines;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of the ingest chain: reads the body without holding a thread ({@link BodyReader}, within
 * the shared {@link BodyBudget}), hands it to {@link Ingest} and answers once its events are
 * durable — 200 {@code {"accepted":N}}, or the refusal (413, 408, 503 busy, 400, 503).
 */
final class BodyIntake extends Handler.Abstract {

    private static final Logger log = LoggerFactory.getLogger(BodyIntake.class);
    /** MinIO's audit webhook states how many entries a batch holds; it is counted, never trusted. */
    static final String PAYLOAD_COUNT = "X-Minio-Webhook-Payload-Count";

    private final TargetKind kind;
    private final Ingest ingest;
    private final BodyBudget budget;
    private final RequestDeadlines deadlines;
    private final IngestMetrics metrics;
    private final BusyLog busy = new BusyLog();

    BodyIntake(TargetKind kind, Ingest ingest, BodyBudget budget, RequestDeadlines deadlines, IngestMetrics metrics) {
        this.kind = kind;
        this.ingest = ingest;
        this.budget = budget;
        this.deadlines = deadlines;
        this.metrics = metrics;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        Optional<String> target = TargetRoute.target(request);
        AtomicBoolean gone = new AtomicBoolean();
        request.addFailureListener(failure -> gone.set(true));
        BodyBudget.Grant grant = budget.open();
        BodyReader.read(request, EventParser.MAX_EVENT_BODY_BYTES, grant, deadlines, outcome -> {
            // The grant (the body's bytes) is held until the answer is decided, fsync included.
            CompletableFuture<Void> answered;
            try {
                answered = answer(request, response, callback, target, outcome, gone);
            } catch (RuntimeException e) {
                answered = CompletableFuture.failedFuture(e);
            }
            answered.whenComplete((ok, failure) -> {
                grant.close();
                if (failure != null) {
                    log.error("ingest failed kind={} error=\"{}\"", kind.label(), failure.toString());
                    callback.failed(failure);
                }
            });
        });
        return true;
    }

    private CompletableFuture<Void> answer(Request request, Response response, Callback callback,
                                           Optional<String> target, BodyReader.Outcome outcome, AtomicBoolean gone) {
        if (outcome instanceof BodyReader.Outcome.Complete complete) {
            if (gone.get() || !connected(request)) {
                // The sender gave up (and will retry): queueing now would store the event twice.
                log.debug("ingest dropped a request whose client went away kind={}", kind.label());
                callback.failed(new java.io.IOException("client went away before its body was queued"));
                return DONE;
            }
            // Completes after the fsync on the thread that wrote the batch (the queue's writer, or this
            // thread when it wrote its events itself), with the queue's lock released. The answer is
            // written right there: Jetty's writes do not block, and another hand-off would cost more
            // than the write. No request thread waits for the fsync.
            Optional<TraceContext> trace = TraceContext.parse(request.getHeaders().get("traceparent"),
                request.getHeaders().get("tracestate"));
            return ingest.accept(kind, target, complete.body(), request.getHeaders(), trace).thenAccept(result -> {
                if (result instanceof IngestResult.Accepted a) {
                    metrics.accepted();
                    checkCount(request, a.events());
                    HttpJson.send(response, callback, 200, accepted(a.events()), "application/json");
                } else if (result instanceof IngestResult.Rejected r) {
                    reject(response, callback, r);
                }
            });
        } else if (outcome instanceof BodyReader.Outcome.TooLarge t) {
            HttpJson.errorAndClose(response, callback, 413, "body larger than " + t.limit() + " bytes", Optional.empty());
        } else if (outcome instanceof BodyReader.Outcome.Busy) {
            busy.refused(budget.capacityBytes());
            HttpJson.errorAndClose(response, callback, 503, "ingest busy: too many large bodies in flight",
                Optional.of(Duration.ofSeconds(1)));
        } else if (outcome instanceof BodyReader.Outcome.TimedOut) {
            HttpJson.errorAndClose(response, callback, 408, "request body not received within the request timeout",
                Optional.empty());
        } else if (outcome instanceof BodyReader.Outcome.Failed f) {
            callback.failed(f.cause());
        }
        return DONE;
    }

    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    // {"accepted":N}: nearly every answer, so the common ones are built once.
    private static final byte[][] ACCEPTED = new byte[64][];

    static {
        for (int n = 0; n < ACCEPTED.length; n++) {
            ACCEPTED[n] = acceptedJson(n);
        }
    }

    private static byte[] accepted(int events) {
        return events < ACCEPTED.length ? ACCEPTED[events] : acceptedJson(events);
    }

    private static byte[] acceptedJson(int events) {
        return ("{\"accepted\":" + events + "}").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    static void reject(Response response, Callback callback, IngestResult.Rejected r) {
        HttpJson.error(response, callback, r.status(), r.error(), r.retryAfter());
    }

    private static boolean connected(Request request) {
        EndPoint endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
        return endPoint.isOpen();
    }

    // MinIO replays a multi-entry batch from its queue with a count of 1: the lines decide.
    private void checkCount(Request request, int events) {
        String stated = request.getHeaders().get(PAYLOAD_COUNT);
        if (stated == null) {
            return;
        }
        String trimmed = stated.trim();
        if (!trimmed.equals(Integer.toString(events))) {
            metrics.countMismatch();
            log.debug("payload count header differs from the entries in the body kind={} header={} entries={}",
                kind.label(), HttpJson.quote(trimmed), events);
        }
    }

    /** One warning for the first busy refusal, then at most one a minute with the count since. */
    private static final class BusyLog {
        private static final long EVERY_NANOS = Duration.ofMinutes(1).toNanos();
        private final AtomicLong since = new AtomicLong();
        private volatile long lastNanos = System.nanoTime() - EVERY_NANOS;

        void refused(long capacityBytes) {
            long n = since.incrementAndGet();
            long now = System.nanoTime();
            if (now - lastNanos >= EVERY_NANOS) {
                lastNanos = now;
                since.addAndGet(-n);
                log.warn("ingest busy, requests refused with 503 refused={} body_budget_bytes={} (raise the heap with"
                    + " JAVA_OPTS if this recurs)", n, capacityBytes);
            }
        }
    }

}

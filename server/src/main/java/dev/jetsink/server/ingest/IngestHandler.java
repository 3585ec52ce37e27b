package dev.jetsink.server.ingest;

import dev.jetsink.TraceContext;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventParser;
import dev.jetsink.server.http.BearerToken;
import dev.jetsink.server.http.BodyBudget;
import dev.jetsink.server.http.BodyReader;
import dev.jetsink.server.http.HttpJson;
import dev.jetsink.server.http.RequestDeadlines;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /notify}, {@code POST /notify/{id}}, {@code POST /audit}, {@code POST /audit/{id}}:
 * the webhook endpoints an object store's notify and audit targets point at (DESIGN.md "Daemon"). Checks
 * the token in every form a real sender uses, refuses what it can before reading the body (a
 * retry storm against a full queue costs no body read), reads the body without holding a thread
 * ({@link BodyReader}), and hands it to {@link Ingest}.
 */
public final class IngestHandler extends Handler.Abstract {

    private static final Logger log = LoggerFactory.getLogger(IngestHandler.class);
    /** MinIO's audit webhook states how many entries a batch holds; it is counted, never trusted. */
    static final String PAYLOAD_COUNT = "X-Minio-Webhook-Payload-Count";

    private final TargetKind kind;
    private final Ingest ingest;
    private final Optional<BearerToken> token;
    private final BodyBudget budget;
    private final RequestDeadlines deadlines;
    private final IngestMetrics metrics;
    private final BusyLog busy = new BusyLog();

    public IngestHandler(TargetKind kind, Ingest ingest, Optional<BearerToken> token, BodyBudget budget,
                  RequestDeadlines deadlines, IngestMetrics metrics) {
        this.kind = kind;
        this.ingest = ingest;
        this.token = token;
        this.budget = budget;
        this.deadlines = deadlines;
        this.metrics = metrics;
    }

    @Override
    public boolean handle(Request request, Response response, Callback jettyCallback) {
        Callback callback = counted(response, jettyCallback);
        Optional<Optional<String>> target = targetOf(Request.getPathInContext(request));
        if (target.isEmpty()) {
            HttpJson.error(response, callback, 404, "not found");
            return true;
        }
        if (!"POST".equals(request.getMethod())) {
            response.getHeaders().put(HttpHeader.ALLOW, "POST");
            HttpJson.error(response, callback, 405, "use POST");
            return true;
        }
        if (token.isPresent() && !token.get().acceptsAnySenderForm(
                Optional.ofNullable(request.getHeaders().get(HttpHeader.AUTHORIZATION)))) {
            response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
            HttpJson.error(response, callback, 401, "missing or wrong token");
            return true;
        }
        Optional<IngestResult.Rejected> early = ingest.refusalBeforeBody(kind, target.get());
        if (early.isPresent()) {
            reject(response, callback, early.get());
            return true;
        }
        AtomicBoolean gone = new AtomicBoolean();
        request.addFailureListener(failure -> gone.set(true));
        BodyBudget.Grant grant = budget.open();
        BodyReader.read(request, EventParser.MAX_BODY_BYTES, grant, deadlines, outcome -> {
            // The grant (the body's bytes) is held until the answer is decided, fsync included.
            CompletableFuture<Void> answered;
            try {
                answered = answer(request, response, callback, target.get(), outcome, gone);
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
            // Completes on the queue writer's thread after the fsync; no request thread waits.
            Optional<TraceContext> trace = TraceContext.parse(request.getHeaders().get("traceparent"),
                request.getHeaders().get("tracestate"));
            return ingest.accept(kind, target, complete.body(), trace).thenAcceptAsync(result -> {
                if (result instanceof IngestResult.Accepted a) {
                    metrics.accepted();
                    checkCount(request, a.events());
                    HttpJson.send(response, callback, 200, accepted(a.events()), "application/json");
                } else if (result instanceof IngestResult.Rejected r) {
                    reject(response, callback, r);
                }
            }, request.getComponents().getExecutor());
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

    // Every answer is counted by its status; a request whose client went away, as aborted.
    private Callback counted(Response response, Callback callback) {
        return new Callback() {
            @Override
            public void succeeded() {
                metrics.answered(response.getStatus());
                callback.succeeded();
            }

            @Override
            public void failed(Throwable x) {
                metrics.aborted();
                callback.failed(x);
            }

            @Override
            public InvocationType getInvocationType() {
                return callback.getInvocationType();
            }
        };
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

    private static void reject(Response response, Callback callback, IngestResult.Rejected r) {
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

    /** Empty for a path this handler does not serve; else the addressed target id, if any. */
    private Optional<Optional<String>> targetOf(String path) {
        String base = "/" + kind.label();
        if (path.equals(base) || path.equals(base + "/")) {
            return Optional.of(Optional.empty());
        }
        if (path.startsWith(base + "/")) {
            String id = path.substring(base.length() + 1);
            if (id.endsWith("/")) {
                id = id.substring(0, id.length() - 1);
            }
            if (!id.isEmpty() && !id.contains("/")) {
                return Optional.of(Optional.of(id.toLowerCase(Locale.ROOT)));
            }
        }
        return Optional.empty();
    }
}

package dev.jetsink.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.jetsink.config.TargetKind;
import dev.jetsink.event.EventParser;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code POST /notify}, {@code POST /notify/{id}}, {@code POST /audit}, {@code POST /audit/{id}}:
 * the webhook endpoints an object store's notify and audit targets point at (SPEC §3.1). Checks
 * the bearer token, bounds the body at 4 MiB and the bytes held by all requests at once
 * ({@link BodyBudget}), and hands it to {@link Ingest}.
 */
final class IngestHandler implements HttpHandler {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(IngestHandler.class);

    private final TargetKind kind;
    private final Ingest ingest;
    private final Optional<BearerToken> token;
    private final BodyBudget budget;
    private final BusyLog busy = new BusyLog();

    IngestHandler(TargetKind kind, Ingest ingest, Optional<BearerToken> token, BodyBudget budget) {
        this.kind = kind;
        this.ingest = ingest;
        this.token = token;
        this.budget = budget;
    }

    @Override
    public void handle(HttpExchange ex) throws IOException {
        Optional<Optional<String>> target = targetOf(ex.getRequestURI().getPath());
        if (target.isEmpty()) {
            HttpJson.error(ex, 404, "not found");
            return;
        }
        if (!"POST".equals(ex.getRequestMethod())) {
            ex.getResponseHeaders().set("Allow", "POST");
            HttpJson.error(ex, 405, "use POST");
            return;
        }
        if (token.isPresent() && !token.get().accepts(Optional.ofNullable(ex.getRequestHeaders().getFirst("Authorization")))) {
            ex.getResponseHeaders().set("WWW-Authenticate", "Bearer");
            HttpJson.error(ex, 401, "missing or wrong bearer token");
            return;
        }
        Optional<BodyBudget.Grant> room;
        try {
            room = budget.acquire(declaredLength(ex), BodyBudget.WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            room = Optional.empty();
        }
        if (room.isEmpty()) {
            busy.refused(budget.capacityBytes());
            HttpJson.discard(ex, EventParser.MAX_BODY_BYTES);
            HttpJson.error(ex, 503, "ingest busy: too many large bodies in flight", Optional.of(Duration.ofSeconds(1)));
            return;
        }
        try (BodyBudget.Grant held = room.get()) {
            answer(ex, target.get());
        }
    }

    private void answer(HttpExchange ex, Optional<String> target) throws IOException {
        Optional<byte[]> body = HttpJson.readAtMost(ex, EventParser.MAX_BODY_BYTES);
        if (body.isEmpty()) {
            HttpJson.error(ex, 413, "body larger than " + EventParser.MAX_BODY_BYTES + " bytes");
            return;
        }
        IngestResult result = ingest.accept(kind, target, body.get());
        if (result instanceof IngestResult.Accepted a) {
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("accepted", a.events());
            HttpJson.send(ex, 200, answer);
        } else if (result instanceof IngestResult.Rejected r) {
            HttpJson.error(ex, r.status(), r.error(), r.retryAfter());
        }
    }

    private static OptionalLong declaredLength(HttpExchange ex) {
        String value = ex.getRequestHeaders().getFirst("Content-Length");
        if (value == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** One warning for the first busy refusal, then at most one a minute with the count since. */
    private static final class BusyLog {
        private static final long EVERY_NANOS = Duration.ofMinutes(1).toNanos();
        private final java.util.concurrent.atomic.AtomicLong since = new java.util.concurrent.atomic.AtomicLong();
        private volatile long lastNanos = System.nanoTime() - EVERY_NANOS;

        void refused(long capacityBytes) {
            long n = since.incrementAndGet();
            long now = System.nanoTime();
            if (now - lastNanos >= EVERY_NANOS) {
                lastNanos = now;
                since.addAndGet(-n);
                LOG.warn("ingest busy, requests refused with 503 refused={} body_budget_bytes={} (raise the heap with"
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
                return Optional.of(Optional.of(id.toLowerCase(java.util.Locale.ROOT)));
            }
        }
        return Optional.empty();
    }
}

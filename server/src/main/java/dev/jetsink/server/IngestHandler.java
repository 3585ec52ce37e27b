package dev.jetsink.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.jetsink.config.TargetKind;
import dev.jetsink.event.EventParser;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code POST /notify}, {@code POST /notify/{id}}, {@code POST /audit}, {@code POST /audit/{id}}:
 * the webhook endpoints an object store's notify and audit targets point at (SPEC §3.1). Checks
 * the bearer token, bounds the body at 4 MiB and hands it to {@link Ingest}.
 */
final class IngestHandler implements HttpHandler {

    private final TargetKind kind;
    private final Ingest ingest;
    private final Optional<BearerToken> token;

    IngestHandler(TargetKind kind, Ingest ingest, Optional<BearerToken> token) {
        this.kind = kind;
        this.ingest = ingest;
        this.token = token;
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
        Optional<byte[]> body = HttpJson.readAtMost(ex, EventParser.MAX_BODY_BYTES);
        if (body.isEmpty()) {
            HttpJson.error(ex, 413, "body larger than " + EventParser.MAX_BODY_BYTES + " bytes");
            return;
        }
        IngestResult result = ingest.accept(kind, target.get(), body.get());
        if (result instanceof IngestResult.Accepted a) {
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("accepted", a.events());
            HttpJson.send(ex, 200, answer);
        } else if (result instanceof IngestResult.Rejected r) {
            HttpJson.error(ex, r.status(), r.error(), r.retryAfter());
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

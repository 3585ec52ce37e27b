package dev.jetsink.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.jetsink.config.BooleanValue;
import dev.jetsink.config.TargetKind;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The admin API under {@code /rustfs/admin/v3} (SPEC §10), with the origin system's paths:
 * {@code GET target/list}, {@code PUT target/nats/{id}[?dry_run=true]},
 * {@code DELETE target/nats/{id}/reset}, and the same under {@code audit/}. Without a configured
 * admin token everything answers 403; otherwise a missing or wrong bearer token answers 401.
 */
final class AdminHandler implements HttpHandler {

    static final String BASE = "/rustfs/admin/v3";
    private static final Pattern ROUTE = Pattern.compile(
        "/(audit/)?target/(?:(list)|nats/([^/]+)(/reset)?)/?");
    /** A key_values body is a few hundred bytes; this leaves room for long comments and paths. */
    static final int MAX_BODY_BYTES = 64 * 1024;
    private static final String BODY_SHAPE = "body must be {\"key_values\":[{\"key\":..,\"value\":..}]}";

    private final Optional<BearerToken> token;
    private final AdminTargets admin;
    private final AdminListing listing;

    AdminHandler(Optional<BearerToken> token, AdminTargets admin, AdminListing listing) {
        this.token = token;
        this.admin = admin;
        this.listing = listing;
    }

    @Override
    public void handle(HttpExchange ex) throws IOException {
        if (token.isEmpty()) {
            HttpJson.error(ex, 403, "admin API disabled");
            return;
        }
        if (!token.get().accepts(Optional.ofNullable(ex.getRequestHeaders().getFirst("Authorization")))) {
            ex.getResponseHeaders().set("WWW-Authenticate", "Bearer");
            HttpJson.error(ex, 401, "missing or wrong bearer token");
            return;
        }
        Matcher m = ROUTE.matcher(ex.getRequestURI().getPath().substring(BASE.length()));
        if (!m.matches()) {
            HttpJson.error(ex, 404, "not found");
            return;
        }
        TargetKind kind = m.group(1) == null ? TargetKind.NOTIFY : TargetKind.AUDIT;
        try {
            if (m.group(2) != null) {
                expect(ex, "GET");
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("targets", listing.list(kind));
                HttpJson.send(ex, 200, body);
            } else if (m.group(4) != null) {
                expect(ex, "DELETE");
                answer(ex, admin.reset(kind, m.group(3)));
            } else {
                expect(ex, "PUT");
                put(ex, kind, m.group(3));
            }
        } catch (WrongMethod e) {
            ex.getResponseHeaders().set("Allow", e.getMessage());
            HttpJson.error(ex, 405, "use " + e.getMessage());
        }
    }

    private void put(HttpExchange ex, TargetKind kind, String id) throws IOException {
        Optional<byte[]> raw = HttpJson.readAtMost(ex, MAX_BODY_BYTES);
        if (raw.isEmpty()) {
            HttpJson.error(ex, 413, "body larger than " + MAX_BODY_BYTES + " bytes");
            return;
        }
        Optional<Map<String, String>> keyValues = keyValues(raw.get());
        if (keyValues.isEmpty()) {
            HttpJson.error(ex, 400, AdminTargets.INVALID + BODY_SHAPE);
            return;
        }
        try {
            answer(ex, admin.apply(kind, id, keyValues.get(), dryRun(ex.getRequestURI().getRawQuery())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            HttpJson.error(ex, 503, "shutting down");
        }
    }

    /** The pairs of {@code {"key_values":[{"key":..,"value":..}]}}; a later duplicate key wins. */
    static Optional<Map<String, String>> keyValues(byte[] body) {
        JsonNode root;
        try {
            root = HttpJson.JSON.readTree(body);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (root == null || !root.path("key_values").isArray()) {
            return Optional.empty();
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (JsonNode pair : root.get("key_values")) {
            JsonNode key = pair.path("key");
            JsonNode value = pair.path("value");
            if (!key.isTextual() || !(value.isValueNode() || value.isMissingNode())) {
                return Optional.empty();
            }
            out.put(key.asText(), value.isNull() || value.isMissingNode() ? "" : value.asText());
        }
        return Optional.of(out);
    }

    private static boolean dryRun(String rawQuery) {
        if (rawQuery == null) {
            return false;
        }
        for (String part : rawQuery.split("&")) {
            int eq = part.indexOf('=');
            String name = eq < 0 ? part : part.substring(0, eq);
            if (name.equals("dry_run")) {
                return eq < 0 || BooleanValue.parse(part.substring(eq + 1)).orElse(false);
            }
        }
        return false;
    }

    private static void answer(HttpExchange ex, AdminTargets.Answer a) throws IOException {
        HttpJson.send(ex, a.status(), a.body());
    }

    private static void expect(HttpExchange ex, String method) throws WrongMethod {
        if (!method.equals(ex.getRequestMethod())) {
            throw new WrongMethod(method);
        }
    }

    /** The request used another method than the route's; the message is the allowed one. */
    private static final class WrongMethod extends Exception {
        private static final long serialVersionUID = 1L;

        WrongMethod(String allowed) {
            super(allowed, null, false, false);
        }
    }
}

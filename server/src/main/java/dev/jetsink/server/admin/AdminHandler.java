package dev.jetsink.server.admin;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.internal.config.BooleanValue;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.http.BearerToken;
import dev.jetsink.server.http.BodyBudget;
import dev.jetsink.server.http.BodyReader;
import dev.jetsink.server.http.HttpJson;
import dev.jetsink.server.http.RequestDeadlines;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The admin API under {@code /rustfs/admin/v3} (DESIGN.md "Admin API"), with the origin
 * system's paths: {@code GET target/list}, {@code PUT target/nats/{id}[?dry_run=true]},
 * {@code DELETE target/nats/{id}/reset}, and the same under {@code audit/}; and jetsink's own
 * {@code POST target/{notify|audit}/{id}/failed/replay|purge} (body {@link ReplayJson}).
 * Without a configured admin token everything answers 403; otherwise a missing or wrong bearer
 * token answers 401.
 */
public final class AdminHandler extends Handler.Abstract {

    public static final String BASE = "/rustfs/admin/v3";
    private static final Pattern ROUTE = Pattern.compile(
        "/(audit/)?target/(?:(list)|nats/([^/]+)(/reset)?)/?");
    private static final Pattern FAILED_ROUTE = Pattern.compile("/target/(notify|audit)/([^/]+)/failed/(replay|purge)/?");
    /** A key_values body is a few hundred bytes; this leaves room for long comments and paths. */
    static final int MAX_ADMIN_BODY_BYTES = 64 * 1024;
    private static final String BODY_SHAPE = "body must be {\"key_values\":[{\"key\":..,\"value\":..}]}";

    private final Optional<BearerToken> token;
    private final AdminTargets admin;
    private final AdminListing listing;
    private final BodyBudget bodies;
    private final RequestDeadlines deadlines;

    public AdminHandler(Optional<BearerToken> token, AdminTargets admin, AdminListing listing, BodyBudget bodies,
                 RequestDeadlines deadlines) {
        this.token = token;
        this.admin = admin;
        this.listing = listing;
        this.bodies = bodies;
        this.deadlines = deadlines;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (token.isEmpty()) {
            HttpJson.error(response, callback, 403, "admin API disabled");
            return true;
        }
        if (!token.get().accepts(Optional.ofNullable(request.getHeaders().get(HttpHeader.AUTHORIZATION)))) {
            response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
            HttpJson.error(response, callback, 401, "missing or wrong bearer token");
            return true;
        }
        String path = Request.getPathInContext(request).substring(BASE.length());
        Matcher failed = FAILED_ROUTE.matcher(path);
        if (failed.matches()) {
            if (HttpJson.allowOnly(request, response, callback, "POST")) {
                TargetKind kind = failed.group(1).equals("notify") ? TargetKind.NOTIFY : TargetKind.AUDIT;
                withBody(request, response, callback, raw -> answer(response, callback,
                    admin.failed(kind, failed.group(2), failed.group(3), raw)));
            }
            return true;
        }
        Matcher m = ROUTE.matcher(path);
        if (!m.matches()) {
            HttpJson.error(response, callback, 404, "not found");
            return true;
        }
        TargetKind kind = m.group(1) == null ? TargetKind.NOTIFY : TargetKind.AUDIT;
        if (m.group(2) != null) {
            if (HttpJson.allowOnly(request, response, callback, "GET")) {
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("targets", listing.list(kind));
                HttpJson.send(response, callback, 200, body);
            }
        } else if (m.group(4) != null) {
            if (HttpJson.allowOnly(request, response, callback, "DELETE")) {
                answer(response, callback, admin.reset(kind, m.group(3)));
            }
        } else if (HttpJson.allowOnly(request, response, callback, "PUT")) {
            put(request, response, callback, kind, m.group(3));
        }
        return true;
    }

    private void put(Request request, Response response, Callback callback, TargetKind kind, String id) {
        withBody(request, response, callback, raw -> apply(request, response, callback, kind, id, raw));
    }

    /** Reads the (small) request body, then hands it over; refusals are answered here. */
    private void withBody(Request request, Response response, Callback callback, java.util.function.Consumer<byte[]> then) {
        BodyBudget.Grant grant = bodies.open();
        BodyReader.read(request, MAX_ADMIN_BODY_BYTES, grant, deadlines, outcome -> {
            try (grant) {
                if (outcome instanceof BodyReader.Outcome.Complete c) {
                    then.accept(c.body());
                } else if (outcome instanceof BodyReader.Outcome.TooLarge) {
                    HttpJson.errorAndClose(response, callback, 413, "body larger than " + MAX_ADMIN_BODY_BYTES + " bytes",
                        Optional.empty());
                } else if (outcome instanceof BodyReader.Outcome.Failed f) {
                    callback.failed(f.cause());
                } else {
                    HttpJson.errorAndClose(response, callback, outcome instanceof BodyReader.Outcome.TimedOut ? 408 : 503,
                        "request body not received", Optional.empty());
                }
            }
        });
    }

    private void apply(Request request, Response response, Callback callback, TargetKind kind, String id, byte[] raw) {
        Optional<Map<String, String>> keyValues = keyValues(raw);
        if (keyValues.isEmpty()) {
            HttpJson.error(response, callback, 400, AdminTargets.INVALID + BODY_SHAPE);
            return;
        }
        try {
            answer(response, callback, admin.apply(kind, id, keyValues.get(), dryRun(request.getHttpURI().getQuery())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            HttpJson.error(response, callback, 503, "shutting down");
        }
    }

    /** The pairs of {@code {"key_values":[{"key":..,"value":..}]}}; a later duplicate key wins. */
    static Optional<Map<String, String>> keyValues(byte[] body) {
        JsonNode root;
        try {
            root = Json.READER.readTree(body);
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

    private static void answer(Response response, Callback callback, AdminTargets.Answer a) {
        HttpJson.send(response, callback, a.status(), a.body());
    }
}

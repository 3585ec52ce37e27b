package dev.jetsink.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.jetsink.target.TargetHealth;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code GET /health}: 200 when every enabled target is online, else 503; JSON per target. */
final class HealthHandler implements HttpHandler {

    private final HealthCheck check;

    HealthHandler(HealthCheck check) {
        this.check = check;
    }

    @Override
    public void handle(HttpExchange ex) throws IOException {
        if (!HttpJson.allowOnly(ex, "GET")) {
            return;
        }
        List<TargetHealth> results = check.run();
        boolean healthy = HealthCheck.healthy(results);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", healthy ? "online" : "degraded");
        body.put("targets", results.stream().map(HealthHandler::entry).toList());
        HttpJson.send(ex, healthy ? 200 : 503, body);
    }

    private static Map<String, Object> entry(TargetHealth h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target", h.target());
        m.put("status", h.status().label());
        m.put("reason", h.reason());
        return m;
    }
}

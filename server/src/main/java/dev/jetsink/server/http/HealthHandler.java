package dev.jetsink.server.http;

import dev.jetsink.internal.targets.TargetHealth;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** {@code GET /health} (and {@code HEAD}): 200 when every enabled target is online, else 503; JSON per target. */
public final class HealthHandler extends Handler.Abstract {

    private final HealthCheck check;

    public HealthHandler(HealthCheck check) {
        this.check = check;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!HttpJson.allowOnly(request, response, callback, "GET")) {
            return true;
        }
        List<TargetHealth> results = check.run();
        boolean healthy = HealthCheck.healthy(results);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", healthy ? "online" : "degraded");
        body.put("targets", results.stream().map(HealthHandler::entry).toList());
        HttpJson.send(response, callback, healthy ? 200 : 503, body);
        return true;
    }

    private static Map<String, Object> entry(TargetHealth h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target", h.target());
        m.put("status", h.status().label());
        m.put("reason", h.reason());
        return m;
    }
}

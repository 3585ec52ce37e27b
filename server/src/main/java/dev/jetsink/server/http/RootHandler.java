package dev.jetsink.server.http;

import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /} and {@code HEAD /}: 200 naming the service. RustFS probes a webhook's liveness
 * with {@code HEAD /} before its first delivery, and load balancers probe the root.
 */
public final class RootHandler extends Handler.Abstract {

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (HttpJson.allowOnly(request, response, callback, "GET")) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("service", "jetsink");
            body.put("endpoints", java.util.List.of("/notify", "/audit", "/ready", "/live", "/health", "/status", "/metrics"));
            HttpJson.send(response, callback, 200, body);
        }
        return true;
    }
}

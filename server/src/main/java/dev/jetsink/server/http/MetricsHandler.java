package dev.jetsink.server.http;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** {@code GET /metrics} (and {@code HEAD}): the registry in Prometheus text format (DESIGN.md "Metrics"). */
public final class MetricsHandler extends Handler.Abstract {

    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private final PrometheusMeterRegistry registry;

    public MetricsHandler(PrometheusMeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (HttpJson.allowOnly(request, response, callback, "GET")) {
            HttpJson.send(response, callback, 200, HttpJson.utf8(registry.scrape()), CONTENT_TYPE);
        }
        return true;
    }
}

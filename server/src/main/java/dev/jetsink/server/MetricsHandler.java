package dev.jetsink.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;

/** {@code GET /metrics}: the registry in Prometheus text format (SPEC §9). */
final class MetricsHandler implements HttpHandler {

    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private final PrometheusMeterRegistry registry;

    MetricsHandler(PrometheusMeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void handle(HttpExchange ex) throws IOException {
        if (!HttpJson.allowOnly(ex, "GET")) {
            return;
        }
        HttpJson.send(ex, 200, HttpJson.utf8(registry.scrape()), CONTENT_TYPE);
    }
}

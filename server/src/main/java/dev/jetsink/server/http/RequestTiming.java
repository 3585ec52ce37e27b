package dev.jetsink.server.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Times every routed request from its arrival to its answer ({@code
 * jetsink_http_request_duration_seconds{path,status}}, a histogram whose {@code _count} is the
 * answers by status class). {@code path} is the route ({@link Routes#routeOf}) and {@code status}
 * the class {@code 2xx}..{@code 5xx}, or {@code aborted} when the answer could not be completed
 * (the client went away): both label sets are bounded whatever senders send.
 */
public final class RequestTiming extends Handler.Wrapper {

    static final String NAME = "jetsink_http_request_duration_seconds";
    /** The histogram spans what a request can take: sub-millisecond up to the longest request timeout. */
    private static final Duration FASTEST = Duration.ofMillis(1);
    private static final Duration SLOWEST = Duration.ofMinutes(2);

    private final MeterRegistry registry;
    private final Routes routes;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    public RequestTiming(MeterRegistry registry, Routes routes) {
        super(routes);
        this.registry = registry;
        this.routes = routes;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = routes.routeOf(Request.getPathInContext(request));
        long begin = request.getBeginNanoTime();
        Callback timed = new Callback() {
            @Override
            public void succeeded() {
                record(path, statusClass(response.getStatus()), begin);
                callback.succeeded();
            }

            @Override
            public void failed(Throwable x) {
                record(path, "aborted", begin);
                callback.failed(x);
            }

            @Override
            public InvocationType getInvocationType() {
                return callback.getInvocationType();
            }
        };
        return super.handle(request, response, timed);
    }

    private void record(String path, String status, long beginNanos) {
        timers.computeIfAbsent(path + " " + status, k -> Timer.builder(NAME)
                .description("HTTP requests from arrival to answer, by route and status class")
                .tags("path", path, "status", status)
                .publishPercentileHistogram()
                .minimumExpectedValue(FASTEST)
                .maximumExpectedValue(SLOWEST)
                .register(registry))
            .record(System.nanoTime() - beginNanos, TimeUnit.NANOSECONDS);
    }

    static String statusClass(int status) {
        return status >= 100 && status < 600 ? (status / 100) + "xx" : "other";
    }
}

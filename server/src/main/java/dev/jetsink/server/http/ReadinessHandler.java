package dev.jetsink.server.http;

import dev.jetsink.internal.config.TargetKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /ready} (and {@code HEAD}), the probe of a balancer or a Kubernetes Service: 200
 * while at least one running target would take an event, 503 while none would or while shutting
 * down. One full or broken target must not take every daemon out of its Service at once (they
 * all fill together when one stream stops); requests for it are still refused one by one with
 * 503 and {@code Retry-After}, and the body lists it under {@code reasons}. A NATS outage alone
 * keeps it 200: that is what the queue is for.
 *
 * <p>{@code /ready/notify} and {@code /ready/audit} ask the same of one kind's targets, for
 * deployments that route the kinds through separate Services; a kind with no running target
 * answers 404, as its ingest path does. Answers come from memory and touch no network.
 */
public final class ReadinessHandler extends Handler.Abstract {

    private static final String PREFIX = "/ready";

    private final BooleanSupplier stopping;
    private final Supplier<List<IntakeState>> intakes;

    public ReadinessHandler(BooleanSupplier stopping, Supplier<List<IntakeState>> intakes) {
        this.stopping = stopping;
        this.intakes = intakes;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!HttpJson.allowOnly(request, response, callback, "GET")) {
            return true;
        }
        String path = Request.getPathInContext(request);
        Optional<TargetKind> kind;
        try {
            kind = kindOf(path);
        } catch (IllegalArgumentException e) {
            HttpJson.error(response, callback, 404, "not found: " + HttpJson.quote(path));
            return true;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        kind.ifPresent(k -> body.put("kind", k.label()));
        if (stopping.getAsBoolean()) {
            body.put("status", "not ready");
            body.put("accepting", List.of());
            body.put("reasons", List.of(reason("*", "shutting down")));
            HttpJson.send(response, callback, 503, body);
            return true;
        }
        List<IntakeState> scope = intakes.get().stream().filter(s -> kind.isEmpty() || s.kind() == kind.get()).toList();
        if (scope.isEmpty() && kind.isPresent()) {
            HttpJson.error(response, callback, 404, "no " + kind.get().label() + " NATS target is enabled");
            return true;
        }
        boolean ready = scope.stream().anyMatch(IntakeState::accepting);
        body.put("status", ready ? "ready" : "not ready");
        body.put("accepting", scope.stream().filter(IntakeState::accepting).map(IntakeState::target).toList());
        body.put("reasons", scope.isEmpty() ? List.of(reason("*", "no NATS target is enabled"))
            : scope.stream().filter(s -> !s.accepting()).map(s -> reason(s.target(), s.refusal().get())).toList());
        HttpJson.send(response, callback, ready ? 200 : 503, body);
        return true;
    }

    /** Empty for {@code /ready}, the kind for {@code /ready/<kind>}; anything else is not a probe. */
    private static Optional<TargetKind> kindOf(String path) {
        if (path.equals(PREFIX)) {
            return Optional.empty();
        }
        return Optional.of(TargetKind.fromLabel(path.substring(PREFIX.length() + 1)));
    }

    private static Map<String, String> reason(String target, String reason) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("target", target);
        m.put("reason", reason);
        return m;
    }
}

package dev.jetsink.server.http;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The probes of a supervisor or load balancer, apart from {@code /health} (which reports delivery):
 * <ul>
 *   <li>{@code GET /live}: 200 whenever the process answers HTTP at all.</li>
 *   <li>{@code GET /ready}: 200 while the daemon would accept an event for every enabled target,
 *       503 with the reasons otherwise (a queue at its limit or unavailable, a target whose init
 *       failed, the daemon shutting down). A NATS outage alone keeps it 200: that is what the
 *       queue is for, and a balancer must not pull the daemon out exactly then.</li>
 * </ul>
 * Both answer from memory, in microseconds, and touch no network.
 */
public final class ProbeHandler extends Handler.Abstract {

    /** One reason the daemon would refuse an event now, by target. */
    public record Refusal(String target, String reason) {
    }

    private final boolean readiness;
    private final BooleanSupplier stopping;
    private final Supplier<List<Refusal>> refusals;

    private ProbeHandler(boolean readiness, BooleanSupplier stopping, Supplier<List<Refusal>> refusals) {
        this.readiness = readiness;
        this.stopping = stopping;
        this.refusals = refusals;
    }

    /** {@code /live}. */
    public static ProbeHandler liveness() {
        return new ProbeHandler(false, () -> false, List::of);
    }

    /** {@code /ready}: not ready while {@code stopping} or while any target would refuse an event. */
    public static ProbeHandler readiness(BooleanSupplier stopping, Supplier<List<Refusal>> refusals) {
        return new ProbeHandler(true, stopping, refusals);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!HttpJson.allowOnly(request, response, callback, "GET")) {
            return true;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        if (!readiness) {
            body.put("status", "live");
            HttpJson.send(response, callback, 200, body);
            return true;
        }
        List<Refusal> refused = stopping.getAsBoolean() ? List.of(new Refusal("*", "shutting down")) : refusals.get();
        body.put("status", refused.isEmpty() ? "ready" : "not ready");
        body.put("reasons", refused.stream().map(r -> Map.of("target", r.target(), "reason", r.reason())).toList());
        HttpJson.send(response, callback, refused.isEmpty() ? 200 : 503, body);
        return true;
    }
}

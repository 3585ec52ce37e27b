package dev.jetsink.server.http;

import dev.jetsink.internal.targets.TargetHealth;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /health} (and {@code HEAD}): 200 when every enabled target is online and would take
 * an event, else 503; JSON per target. A target that would refuse an event now (its queue at
 * {@code queue_limit}, say) carries the reason as {@code refusing}: {@code /ready} stays 200 for
 * it while another target takes events, so this is where it shows.
 */
public final class HealthHandler extends Handler.Abstract {

    private final HealthCheck check;
    private final Supplier<List<IntakeState>> intakes;

    public HealthHandler(HealthCheck check, Supplier<List<IntakeState>> intakes) {
        this.check = check;
        this.intakes = intakes;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!HttpJson.allowOnly(request, response, callback, "GET")) {
            return true;
        }
        List<TargetHealth> results = check.run();
        Map<String, String> refusing = new LinkedHashMap<>();
        intakes.get().forEach(s -> s.refusal().ifPresent(r -> refusing.put(s.target(), r)));
        boolean healthy = HealthCheck.healthy(results) && refusing.isEmpty();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", healthy ? "online" : "degraded");
        body.put("targets", results.stream().map(h -> entry(h, Optional.ofNullable(refusing.get(h.target())))).toList());
        HttpJson.send(response, callback, healthy ? 200 : 503, body);
        return true;
    }

    private static Map<String, Object> entry(TargetHealth h, Optional<String> refusing) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target", h.target());
        m.put("status", h.status().label());
        m.put("reason", h.reason());
        refusing.ifPresent(r -> m.put("refusing", r));
        return m;
    }
}

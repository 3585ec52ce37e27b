package dev.jetsink.server.admin;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.internal.targets.TargetHealth;
import dev.jetsink.internal.targets.Targets;
import dev.jetsink.server.http.HealthCheck;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * {@code GET .../target/list}: every running target of a kind with its resolved configuration
 * (secrets as {@code ***}), path, queue length and health. Health checks run in parallel under the
 * bound of {@code /health} (DESIGN.md "Status"), so a hanging broker cannot stall the listing.
 */
public final class AdminListing {

    private final Map<TargetKind, Targets> targets;
    private final AdminTargets admin;
    private final ExecutorService pool;

    public AdminListing(Map<TargetKind, Targets> targets, AdminTargets admin, ExecutorService pool) {
        this.targets = Map.copyOf(targets);
        this.admin = admin;
        this.pool = pool;
    }

    List<Map<String, Object>> list(TargetKind kind) {
        List<NatsTarget> running = targets.get(kind).targets();
        List<HealthCheck.Probe> probes = running.stream().map(HealthCheck.Probe::of).toList();
        List<TargetHealth> health = new HealthCheck(probes, List.of(), pool, HealthCheck.BOUND).run();
        List<Map<String, Object>> out = new ArrayList<>(running.size());
        for (int i = 0; i < running.size(); i++) {
            NatsTarget t = running.get(i);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("target", t.displayId());
            m.put("id", t.config().id());
            m.put("arn", t.config().arn());
            m.put("kind", kind.label());
            m.put("type", "nats");
            m.put("source", admin.isApplied(kind, t.config().id()) ? "admin" : "config");
            m.put("path", t.config().path());
            m.put("status", health.get(i).status().label());
            m.put("reason", health.get(i).reason());
            m.put("queue_length", t.queueLength());
            m.put("key_values", TargetView.keyValues(t.config()));
            out.add(m);
        }
        return out;
    }
}

package dev.jetsink.server.http;

import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.internal.targets.TargetHealth;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The health of every target (DESIGN.md "Status"): checks run in parallel and the whole answer is bounded
 * (5 s by default); a target whose check is not done by then reports {@code offline}, reason
 * {@code health check timed out}. Targets configured under a kind whose switch is off show as
 * {@code disabled}.
 */
public final class HealthCheck {

    public static final Duration BOUND = Duration.ofSeconds(5);

    /** One target's check: its display id and the (possibly slow) health lookup. */
    public record Probe(String target, Supplier<TargetHealth> check) {
        public static Probe of(NatsTarget t) {
            return new Probe(t.displayId(), t::health);
        }
    }

    // A supplier, not a list: targets applied or reset through the admin API come and go.
    private final Supplier<List<Probe>> targets;
    private final List<TargetConfig> disabled;
    private final ExecutorService pool;
    private final Duration bound;

    public HealthCheck(List<Probe> targets, List<TargetConfig> disabled, ExecutorService pool, Duration bound) {
        this(() -> targets, disabled, pool, bound);
    }

    public HealthCheck(Supplier<List<Probe>> targets, List<TargetConfig> disabled, ExecutorService pool, Duration bound) {
        this.targets = targets;
        this.disabled = List.copyOf(disabled);
        this.pool = pool;
        this.bound = bound;
    }

    /** One entry per target, running targets first, in configuration order. */
    public List<TargetHealth> run() {
        List<Probe> probes = List.copyOf(targets.get());
        List<CompletableFuture<TargetHealth>> checks = new ArrayList<>();
        for (Probe p : probes) {
            checks.add(CompletableFuture.supplyAsync(p.check(), pool));
        }
        long deadline = System.nanoTime() + bound.toNanos();
        List<TargetHealth> out = new ArrayList<>();
        for (int i = 0; i < checks.size(); i++) {
            out.add(await(checks.get(i), probes.get(i).target(), deadline));
        }
        disabled.forEach(c -> out.add(new TargetHealth(c.displayId(), TargetHealth.Status.DISABLED,
            c.kind().globalEnableVariable() + " is off")));
        return out;
    }

    private static TargetHealth await(CompletableFuture<TargetHealth> check, String id, long deadline) {
        try {
            return check.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            return new TargetHealth(id, TargetHealth.Status.OFFLINE, "health check timed out");
        } catch (java.util.concurrent.ExecutionException e) {
            return new TargetHealth(id, TargetHealth.Status.ERROR, "health check failed: "
                + e.getCause().getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new TargetHealth(id, TargetHealth.Status.OFFLINE, "health check timed out");
        }
    }

    /** Healthy when every running target is online (disabled ones do not count). */
    static boolean healthy(List<TargetHealth> results) {
        return results.stream().allMatch(h -> h.online() || h.status() == TargetHealth.Status.DISABLED);
    }
}

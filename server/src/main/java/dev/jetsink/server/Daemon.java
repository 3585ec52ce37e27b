package dev.jetsink.server;

import dev.jetsink.internal.config.JetsinkConfig;
import dev.jetsink.internal.config.LoadedConfig;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventParser;
import dev.jetsink.internal.metrics.TargetMetrics;
import dev.jetsink.internal.publish.Tracing;
import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.internal.targets.StatusBoard;
import dev.jetsink.internal.targets.TargetRuntime;
import dev.jetsink.internal.targets.Targets;
import dev.jetsink.server.admin.AdminHandler;
import dev.jetsink.server.admin.AdminListing;
import dev.jetsink.server.admin.AdminTargets;
import dev.jetsink.server.admin.AppliedTargetStore;
import dev.jetsink.server.admin.TargetReload;
import dev.jetsink.server.http.BearerToken;
import dev.jetsink.server.http.BodyBudget;
import dev.jetsink.server.http.Gate;
import dev.jetsink.server.http.HealthCheck;
import dev.jetsink.server.http.HealthHandler;
import dev.jetsink.server.http.HttpFront;
import dev.jetsink.server.http.MetricsHandler;
import dev.jetsink.server.http.IntakeState;
import dev.jetsink.server.http.LivenessHandler;
import dev.jetsink.server.http.ReadinessHandler;
import dev.jetsink.server.http.RequestDeadlines;
import dev.jetsink.server.http.RequestTiming;
import dev.jetsink.server.http.RootHandler;
import dev.jetsink.server.http.Routes;
import dev.jetsink.server.http.StatusHandler;
import dev.jetsink.server.ingest.Ingest;
import dev.jetsink.server.ingest.IngestHandler;
import dev.jetsink.server.ingest.IngestMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running daemon: notify and audit targets (configured ones, then those restored from
 * {@code JETSINK_DATA_DIR}), their metrics, and the HTTP front (ingest, {@code /metrics},
 * {@code /health}, {@code /ready}, {@code /live}, the admin API). {@link #shutdown} is the SIGTERM
 * path (DESIGN.md "Shutdown").
 */
public final class Daemon implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Daemon.class);
    /** What in-flight publishes get at shutdown, and open connections while handing over. */
    public static final Duration GRACE = Duration.ofSeconds(5);

    private final Map<TargetKind, Targets> targets;
    private final PrometheusMeterRegistry registry;
    private final HttpFront http;
    private final TargetRuntime runtime;
    private final ExecutorService healthPool;
    private final AtomicBoolean stopping;
    private final JvmMeters jvm;
    private final AdminTargets admin;
    private boolean stopped;

    private Daemon(Map<TargetKind, Targets> targets, PrometheusMeterRegistry registry, HttpFront http,
                   TargetRuntime runtime, ExecutorService healthPool, AtomicBoolean stopping, JvmMeters jvm,
                   AdminTargets admin) {
        this.admin = admin;
        this.stopping = stopping;
        this.targets = targets;
        this.registry = registry;
        this.http = http;
        this.runtime = runtime;
        this.healthPool = healthPool;
        this.jvm = jvm;
    }

    /**
     * Binds the HTTP address, opens and starts every active target, then serves. A bind failure
     * comes before any queue is opened.
     */
    public static Daemon start(JetsinkConfig config) throws IOException {
        return start(config, Optional.empty());
    }

    /**
     * Like {@link #start(JetsinkConfig)}, serving on {@code inherited} (a socket the service
     * manager holds open across restarts) instead of binding the configured address.
     */
    public static Daemon start(JetsinkConfig config, Optional<ServerSocketChannel> inherited) throws IOException {
        return start(config, inherited, OpenedResources.StepListener.NONE);
    }

    /**
     * The start itself: every resource is registered in {@code opened} as it is created, and any
     * failure after that closes them in reverse before it propagates. {@code steps} hears each
     * registration (a test fails the start there).
     */
    static Daemon start(JetsinkConfig config, Optional<ServerSocketChannel> inherited,
                        OpenedResources.StepListener steps) throws IOException {
        OpenedResources opened = new OpenedResources(steps);
        try {
            Daemon daemon = open(config, inherited, opened);
            opened.handedOver();
            return daemon;
        } catch (Throwable e) {
            opened.closeAfter(e);
            throw e;
        }
    }

    private static Daemon open(JetsinkConfig config, Optional<ServerSocketChannel> inherited, OpenedResources opened)
            throws IOException {
        HttpFront http = HttpFront.open(config.daemon().httpAddress(), config.daemon().http(), inherited);
        opened.add("http socket", http::stop);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        opened.add("metrics registry", registry::close);
        TargetMetrics metrics = new TargetMetrics(registry);
        TargetRuntime system = TargetRuntime.system();
        opened.add("scheduler", system.scheduler()::shutdownNow);
        TargetRuntime runtime = new TargetRuntime(system.clock(), system.sleeper(), metrics,
            system.notifyConcurrency(), config.daemon().backoffScale(), system.scheduler())
            .withTracing(Tracing.global());
        Map<TargetKind, Targets> targets = new EnumMap<>(TargetKind.class);
        Optional<AppliedTargetStore> store = config.daemon().dataDir().map(AppliedTargetStore::new);
        List<TargetConfig> restorable = AdminTargets.restorable(
            store.map(AppliedTargetStore::loadAll).orElse(List.of()));
        JetsinkConfig configured = withoutOverridden(config, restorable);
        for (TargetKind kind : TargetKind.values()) {
            // Targets owns its queues (and their locks) and its failed-store maintenance.
            Targets t = Targets.start(kind, configured, runtime);
            targets.put(kind, t);
            opened.add(kind.label() + " targets", () -> t.close(Duration.ZERO));
            t.targets().forEach(metrics::register);
        }
        AdminTargets admin = new AdminTargets(targets, metrics, store, GRACE);
        // Restored targets join the Targets above, which the registration of each kind closes.
        admin.restore(restorable);
        opened.reached("admin targets restored");
        ExecutorService healthPool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "jetsink-health");
            t.setDaemon(true);
            return t;
        });
        opened.add("health pool", healthPool::shutdownNow);
        List<TargetConfig> disabled = config.targets().stream().filter(c -> !config.kindEnabled(c.kind())).toList();
        HealthCheck health = new HealthCheck(() -> running(targets), disabled, healthPool, HealthCheck.BOUND);
        StatusBoard board = new StatusBoard(() -> targets.values().stream().flatMap(t -> t.targets().stream()).toList(),
            runtime.clock());
        runtime.scheduler().scheduleWithFixedDelay(() -> {
            try {
                board.sample();
            } catch (RuntimeException e) {
                log.warn("status sampling failed error=\"{}\"", e.toString());
            }
        }, 1, 1, TimeUnit.SECONDS);
        Ingest ingest = new Ingest(targets, runtime.clock());
        var token = config.daemon().ingestToken().map(BearerToken::new);
        Map<String, Handler> routes = new LinkedHashMap<>();
        BodyBudget bodies = BodyBudget.forHeap(Runtime.getRuntime().maxMemory(), EventParser.MAX_EVENT_BODY_BYTES);
        RequestDeadlines deadlines = http.deadlines();
        for (TargetKind kind : TargetKind.values()) {
            routes.put("/" + kind.label(), new IngestHandler(kind, ingest, token, bodies, deadlines,
                new IngestMetrics(registry, kind, runtime.clock(), () -> targets.get(kind).targets().size())));
        }
        FunctionCounter.builder("jetsink.http.idle.evicted", http, HttpFront::idleEvicted)
            .description("Idle HTTP connections closed to make room for a new one at the connection cap")
            .register(registry);
        routes.put("/metrics", new MetricsHandler(registry));
        routes.put("/health", new HealthHandler(health, () -> intakes(targets)));
        AtomicBoolean stopping = new AtomicBoolean();
        routes.put("/ready", new ReadinessHandler(stopping::get, () -> intakes(targets)));
        routes.put("/live", new LivenessHandler());
        routes.put("/status", new StatusHandler(board, runtime.clock()));
        routes.put(AdminHandler.BASE, new AdminHandler(config.daemon().adminToken().map(BearerToken::new), admin,
            new AdminListing(targets, admin, healthPool), bodies, deadlines));
        http.serve(new RequestTiming(registry, new Routes(new RootHandler(), routes)));
        opened.reached("http serving");
        http.bindMetrics(registry, runtime.clock());
        JvmMeters jvm = JvmMeters.bind(registry);
        opened.add("jvm meters", jvm);
        return new Daemon(targets, registry, http, runtime, healthPool, stopping, jvm, admin);
    }

    private static List<IntakeState> intakes(Map<TargetKind, Targets> targets) {
        List<IntakeState> out = new ArrayList<>();
        targets.forEach((kind, t) -> t.targets().forEach(n ->
            out.add(new IntakeState(kind, n.displayId(), n.intake().wouldRefuse()))));
        return out;
    }

    private static List<HealthCheck.Probe> running(Map<TargetKind, Targets> targets) {
        List<HealthCheck.Probe> probes = new ArrayList<>();
        targets.values().forEach(t -> t.targets().forEach(n -> probes.add(HealthCheck.Probe.of(n))));
        return probes;
    }

    /**
     * The configuration without targets that an admin-applied one of the same kind and id will
     * replace at {@link AdminTargets#restore}: the admin change is the later one, and opening both
     * would contend for the same queue.
     */
    private static JetsinkConfig withoutOverridden(JetsinkConfig config, List<TargetConfig> restorable) {
        List<TargetConfig> kept = config.targets().stream()
            .filter(c -> restorable.stream().noneMatch(r -> r.kind() == c.kind() && r.id().equals(c.id()))).toList();
        return new JetsinkConfig(kept, config.notifyEnabled(), config.auditEnabled(), config.notifyStreamConcurrency(),
            config.daemon(), config.warnings());
    }

    /**
     * The reload of {@code systemctl reload} (SIGHUP): {@code configuration} reads the
     * configuration again the way the daemon was started.
     */
    public TargetReload reloader(Supplier<LoadedConfig> configuration, boolean allowUnknownKeys) {
        return new TargetReload(admin, configuration, allowUnknownKeys);
    }

    public InetSocketAddress address() {
        return http.address();
    }

    public Targets targets(TargetKind kind) {
        return targets.get(kind);
    }

    /** The HTTP front, so tests (in {@code server.http}) can see its connections. */
    public HttpFront http() {
        return http;
    }

    /** The intake gate, so tests (in other packages) can see requests in progress and a closed intake. */
    public Gate gate() {
        return http.gate();
    }

    PrometheusMeterRegistry registry() {
        return registry;
    }

    /**
     * New requests get 503; requests already in progress finish (their events are durable
     * before they are answered); publishes in flight get up to {@link #GRACE}; queues close with
     * every undelivered entry kept for the next start. Idempotent.
     */
    public synchronized void shutdown() {
        if (stopped) {
            return;
        }
        stopped = true;
        stopping.set(true);
        try {
            if (http.inherited()) {
                log.info("shutting down: the listening socket stays with the service manager, new connections "
                    + "wait in its backlog for the next process; open connections are answered and closed "
                    + "(up to {} s)", GRACE.toSeconds());
                if (!http.handOver(GRACE)) {
                    log.warn("connections still open after {} s of hand-over open={}; closing them",
                        GRACE.toSeconds(), http.openConnections());
                }
            }
            log.info("shutting down: intake closed, in-flight publishes get up to {} s", GRACE.toSeconds());
            if (!http.closeIntake(GRACE)) {
                log.warn("requests still in progress after {} s; closing anyway", GRACE.toSeconds());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        targets.values().parallelStream().forEach(t -> t.close(GRACE));
        http.stop();
        healthPool.shutdownNow();
        runtime.scheduler().shutdownNow();
        jvm.close();
        long queued = targets.values().stream().flatMap(t -> t.targets().stream()).mapToLong(NatsTarget::queueLength).sum();
        log.info("shutdown complete, entries kept in queues for the next start queued={}", queued);
    }

    @Override
    public void close() {
        shutdown();
    }
}

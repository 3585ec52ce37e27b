package dev.jetsink.server.admin;

import dev.jetsink.internal.event.Json;
import dev.jetsink.ConfigProblem;
import dev.jetsink.internal.config.ConfigKey;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.config.TargetValidation;
import dev.jetsink.internal.config.TargetValidator;
import dev.jetsink.internal.metrics.TargetMetrics;
import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.internal.targets.TargetProbe;
import dev.jetsink.internal.targets.Targets;
import dev.jetsink.server.http.HttpJson;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the admin API does to the running targets (DESIGN.md "Admin API"): validate and apply a
 * target, reset one, restore the persisted ones at start. Every change goes through one lock, so
 * two requests for the same target never interleave. Nothing here logs or returns a secret value.
 */
public final class AdminTargets {

    private static final Logger log = LoggerFactory.getLogger(AdminTargets.class);
    /** How long the connectivity and stream check of a PUT may take (DESIGN.md "Admin API"). */
    static final Duration CHECK_BOUND = Duration.ofSeconds(5);
    static final String INVALID = "invalid NATS configuration: ";
    static final String UNREACHABLE = "nats connectivity check failed: ";
    static final String NOT_PERSISTED = "JETSINK_DATA_DIR is not set: this target runs until the daemon stops "
        + "and is not restored at the next start";
    /** Ids become file and directory names; the environment can only spell these characters anyway. */
    private static final Pattern ID = Pattern.compile("[a-z0-9_-]{1,64}");

    /** An answer for the HTTP layer: status and JSON body. */
    record Answer(int status, Map<String, Object> body) {
        static Answer error(int status, String message) {
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("error", message);
            return new Answer(status, b);
        }
    }

    private final Map<TargetKind, Targets> targets;
    private final TargetMetrics metrics;
    private final Optional<AppliedTargetStore> store;
    private final Duration grace;
    private final Set<String> applied = ConcurrentHashMap.newKeySet();

    /**
     * @param grace what the publishes in flight of a target being reset or replaced get before it
     *              closes (the daemon's shutdown grace)
     */
    public AdminTargets(Map<TargetKind, Targets> targets, TargetMetrics metrics, Optional<AppliedTargetStore> store,
                        Duration grace) {
        this.targets = Map.copyOf(targets);
        this.metrics = metrics;
        this.store = store;
        this.grace = grace;
    }

    /** True when the target was applied through the admin API (listed as {@code source: admin}). */
    boolean isApplied(TargetKind kind, String id) {
        return applied.contains(key(kind, id));
    }

    /**
     * {@code PUT .../target/nats/{id}}: the startup validation, then a bounded connect and stream
     * check, then (unless {@code dryRun}) the target replaces any running one of that id and is
     * persisted.
     */
    synchronized Answer apply(TargetKind kind, String rawId, Map<String, String> keyValues, boolean dryRun)
            throws InterruptedException {
        String id = rawId.toLowerCase(java.util.Locale.ROOT);
        if (!ID.matcher(id).matches()) {
            return Answer.error(400, INVALID + "target id must be 1 to 64 of a-z, 0-9, _ and -: " + rawId);
        }
        Map<String, String> values = new LinkedHashMap<>(keyValues);
        // A PUT applies a running target, so enable defaults to on; an explicit off is refused.
        String enable = values.getOrDefault(ConfigKey.ENABLE.keyName(), "").trim();
        if (enable.isEmpty()) {
            values.put(ConfigKey.ENABLE.keyName(), "on");
        }
        TargetValidation validation = TargetValidator.validateKeyValues(kind, id, values);
        if (!validation.valid()) {
            return Answer.error(400, INVALID + describe(validation.errors()));
        }
        if (!validation.enabled()) {
            return Answer.error(400, INVALID + "enable is " + enable + "; a PUT applies a running target "
                + "(use DELETE .../reset to remove one)");
        }
        TargetConfig config = validation.target().orElseThrow();
        TargetProbe.Result probe = TargetProbe.check(config, CHECK_BOUND);
        if (probe instanceof TargetProbe.Result.Refused r) {
            log.warn("admin check refused a target target=\"{}\" sealed={} reason=\"{}\"", config.displayId(),
                r.sealed(), r.reason());
            return Answer.error(400, UNREACHABLE + r.reason());
        }
        Map<String, Object> body = describe(config, validation);
        body.put("advice", ((TargetProbe.Result.Reachable) probe).advice());
        if (dryRun) {
            body.put("dry_run", true);
            body.put("applied", false);
            return new Answer(200, body);
        }
        Optional<String> startFailure = replace(config);
        if (startFailure.isPresent()) {
            return Answer.error(500, "target passed the checks but could not be started: " + startFailure.get());
        }
        applied.add(key(kind, id));
        body.put("applied", true);
        persist(new AppliedTargetStore.Applied(kind, id, values), body);
        log.info("admin applied target target=\"{}\" path={} persisted={}", config.displayId(), config.path(),
            body.get("persisted"));
        return new Answer(200, body);
    }

    /** {@code DELETE .../target/nats/{id}/reset}: stops and removes the target; its queue stays on disk. */
    /**
     * {@code POST .../target/{kind}/{id}/failed/replay|purge}: replays failed records into the
     * running target's queue, or purges them. Not synchronized with apply/reset: a
     * replay of thousands of records must not hold up the rest of the admin API.
     */
    Answer failed(TargetKind kind, String rawId, String action, byte[] body) {
        String id = rawId.toLowerCase(java.util.Locale.ROOT);
        Optional<NatsTarget> target = targets.get(kind).target(id);
        if (target.isEmpty()) {
            return Answer.error(404, "unknown " + kind.label() + " target: " + HttpJson.quote(rawId));
        }
        ReplayJson.Request request;
        try {
            request = ReplayJson.parse(body);
        } catch (IllegalArgumentException e) {
            return Answer.error(400, "invalid " + action + " request: " + e.getMessage());
        }
        NatsTarget t = target.get();
        if (t.failedStore().isEmpty()) {
            return Answer.error(409, t.displayId() + " has no failed-events store (only JetStream targets keep one)");
        }
        try {
            dev.jetsink.internal.failed.FailedReplay.Report r = action.equals("replay")
                ? t.replayFailed(request.filter(), request.dryRun())
                : t.purgeFailed(request.filter(), request.dryRun());
            log.info("admin {} of failed records target=\"{}\" dry_run={} matched={} done={}", action, t.displayId(),
                r.dryRun(), r.matched(), r.done());
            return new Answer(200, Json.convert(ReplayJson.report(t.displayId(), action, r),
                new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() { }));
        } catch (IOException e) {
            log.error("admin {} of failed records failed target=\"{}\" error=\"{}\"", action, t.displayId(), e.getMessage());
            return Answer.error(500, action + " failed: " + e.getClass().getSimpleName());
        }
    }

    synchronized Answer reset(TargetKind kind, String rawId) {
        String id = rawId.toLowerCase(java.util.Locale.ROOT);
        if (!ID.matcher(id).matches()) {
            return Answer.error(404, "unknown " + kind.label() + " target: " + rawId);
        }
        Optional<NatsTarget> removed = targets.get(kind).remove(id, grace);
        removed.ifPresent(metrics::unregister);
        applied.remove(key(kind, id));
        boolean deleted = false;
        if (store.isPresent()) {
            try {
                deleted = store.get().delete(kind, id);
            } catch (IOException e) {
                log.error("admin reset could not delete the persisted target target=\"{} {}:nats\" error=\"{}\"",
                    kind.label(), id, e.getMessage());
                return Answer.error(500, "target stopped but its persisted record could not be deleted: "
                    + e.getClass().getSimpleName());
            }
        }
        if (removed.isEmpty() && !deleted) {
            return Answer.error(404, "unknown " + kind.label() + " target: " + id);
        }
        log.info("admin reset target target=\"{} {}:nats\" queued entries stay on disk", kind.label(), id);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("target", kind.label() + " " + id + ":nats");
        body.put("removed", true);
        return new Answer(200, body);
    }

    /**
     * The persisted targets that still validate, as configs; a record that no longer does
     * is logged at error and skipped, its file kept for the operator.
     */
    public static List<TargetConfig> restorable(List<AppliedTargetStore.Applied> persisted) {
        List<TargetConfig> out = new java.util.ArrayList<>();
        for (AppliedTargetStore.Applied a : persisted) {
            TargetValidation v = TargetValidator.validateKeyValues(a.kind(), a.id(), a.keyValues());
            if (!v.valid() || !v.enabled() || !ID.matcher(a.id()).matches()) {
                log.error("admin-applied target no longer valid, not restored target=\"{} {}:nats\" error=\"{}\"",
                    a.kind().label(), a.id(), v.valid() ? "enable is off or id malformed" : describe(v.errors()));
                continue;
            }
            out.add(v.target().orElseThrow());
        }
        return out;
    }

    /**
     * Starts the persisted targets (at daemon start, after the configured ones, which the caller
     * has already stripped of ids these replace: the admin change is the later one). A target that
     * cannot be opened is logged and skipped.
     */
    public synchronized void restore(List<TargetConfig> restorable) {
        for (TargetConfig c : restorable) {
            replace(c).ifPresentOrElse(
                f -> log.error("admin-applied target could not be started target=\"{}\" error=\"{}\"", c.displayId(), f),
                () -> {
                    applied.add(key(c.kind(), c.id()));
                    log.info("admin-applied target restored target=\"{}\" path={}", c.displayId(), c.path());
                });
        }
    }

    /**
     * Runs {@code change} under the lock every admin change takes, so a reload and an admin
     * request never interleave.
     */
    synchronized <T> T exclusively(java.util.function.Supplier<T> change) {
        return change.get();
    }

    /** The running targets that came from the configuration, not from the admin API. */
    synchronized List<TargetConfig> runningConfigured() {
        return targets.values().stream().flatMap(t -> t.targets().stream()).map(NatsTarget::config)
            .filter(c -> !isApplied(c.kind(), c.id())).toList();
    }

    /** Starts or replaces a configured target, as {@link #replace} does; the failure when it did not start. */
    synchronized Optional<String> startConfigured(TargetConfig config) {
        return replace(config);
    }

    /** Stops and removes a configured target; its queue stays on disk. */
    synchronized void stopConfigured(TargetKind kind, String id) {
        targets.get(kind).remove(id, grace).ifPresent(metrics::unregister);
    }

    /**
     * Closes a running target of the same id (its queue lock must go first), then starts the new
     * one; if that fails, the old one is started again so a failed replace leaves things as they were.
     */
    private Optional<String> replace(TargetConfig config) {
        Targets kindTargets = targets.get(config.kind());
        Optional<NatsTarget> old = kindTargets.remove(config.id(), grace);
        old.ifPresent(metrics::unregister);
        try {
            metrics.register(kindTargets.add(config));
            return Optional.empty();
        } catch (RuntimeException e) {
            // e.g. another process holds the queue dir; the message names paths, never secrets.
            String failure = e.getClass().getSimpleName() + ": " + e.getMessage();
            old.ifPresent(o -> {
                try {
                    metrics.register(kindTargets.add(o.config()));
                } catch (RuntimeException again) {
                    log.error("the previous target could not be started again either target=\"{}\" error=\"{}: {}\"",
                        o.displayId(), again.getClass().getSimpleName(), again.getMessage());
                }
            });
            return Optional.of(failure);
        }
    }

    private void persist(AppliedTargetStore.Applied a, Map<String, Object> body) {
        if (store.isEmpty()) {
            body.put("persisted", false);
            body.put("warning", NOT_PERSISTED);
            return;
        }
        try {
            store.get().save(a);
            body.put("persisted", true);
        } catch (IOException e) {
            log.error("admin could not persist an applied target, it runs but is not restored at the next start "
                + "target=\"{} {}:nats\" error=\"{}\"", a.kind().label(), a.id(), e.getMessage());
            body.put("persisted", false);
            body.put("warning", "the target runs but could not be persisted (" + e.getClass().getSimpleName()
                + "); it is not restored at the next start");
        }
    }

    private static Map<String, Object> describe(TargetConfig config, TargetValidation validation) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("target", config.displayId());
        body.put("id", config.id());
        body.put("arn", config.arn());
        body.put("path", config.path());
        body.put("key_values", TargetView.keyValues(config));
        body.put("warnings", validation.warnings().stream().map(ConfigProblem::describe).toList());
        return body;
    }

    private static String describe(List<ConfigProblem> problems) {
        return problems.stream().map(ConfigProblem::describe).collect(Collectors.joining("; "));
    }

    private static String key(TargetKind kind, String id) {
        return kind.label() + "/" + id;
    }
}

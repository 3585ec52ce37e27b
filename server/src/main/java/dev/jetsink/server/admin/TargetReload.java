package dev.jetsink.server.admin;

import dev.jetsink.ConfigProblem;
import dev.jetsink.internal.config.LoadedConfig;
import dev.jetsink.internal.config.TargetConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code systemctl reload jetsink} (SIGHUP, DESIGN.md "Daemon"): reads the configuration again the
 * way {@code serve} read it at start and applies the difference in targets the way the admin API
 * applies one: a new target is started, a changed one replaced, a gone one stopped (its queue stays
 * on disk), an unchanged one keeps running untouched. Targets applied through the admin API are the
 * later change and are left alone. A configuration with errors changes nothing.
 */
public final class TargetReload {

    private static final Logger log = LoggerFactory.getLogger(TargetReload.class);

    /** What one reload did. */
    public record Summary(int added, int replaced, int removed, int unchanged, int failed) {
    }

    private final AdminTargets admin;
    private final Supplier<LoadedConfig> configuration;
    private final boolean allowUnknownKeys;

    /**
     * @param configuration    reads the configuration as at start (same environment, same file)
     * @param allowUnknownKeys serve's {@code --allow-unknown-keys}: unknown keys do not block then either
     */
    public TargetReload(AdminTargets admin, Supplier<LoadedConfig> configuration, boolean allowUnknownKeys) {
        this.admin = Objects.requireNonNull(admin, "admin");
        this.configuration = Objects.requireNonNull(configuration, "configuration");
        this.allowUnknownKeys = allowUnknownKeys;
    }

    /** Reloads; empty when the configuration has errors and nothing was changed. */
    public Optional<Summary> reload() {
        LoadedConfig loaded = configuration.get();
        List<ConfigProblem> blocking = allowUnknownKeys ? loaded.valueErrors() : loaded.errors();
        if (!blocking.isEmpty()) {
            log.error("reload refused, the running targets are kept: {} configuration error(s)", blocking.size());
            blocking.forEach(p -> log.error("reload refused error=\"{}\"", p.describe()));
            return Optional.empty();
        }
        return Optional.of(admin.exclusively(() -> apply(loaded.config().activeTargets())));
    }

    private Summary apply(List<TargetConfig> wanted) {
        Map<String, TargetConfig> running = new LinkedHashMap<>();
        admin.runningConfigured().forEach(c -> running.put(key(c), c));
        int added = 0;
        int replaced = 0;
        int unchanged = 0;
        int failed = 0;
        for (TargetConfig c : wanted) {
            if (admin.isApplied(c.kind(), c.id())) {
                log.info("reload: target left as the admin API applied it target=\"{}\"", c.displayId());
                continue;
            }
            TargetConfig old = running.remove(key(c));
            if (c.equals(old)) {
                unchanged++;
                continue;
            }
            Optional<String> failure = admin.startConfigured(c);
            if (failure.isPresent()) {
                failed++;
                log.error("reload: target could not be started target=\"{}\" error=\"{}\"", c.displayId(), failure.get());
            } else if (old == null) {
                added++;
                log.info("reload: target added target=\"{}\" path={}", c.displayId(), c.path());
            } else {
                replaced++;
                log.info("reload: target replaced target=\"{}\" changed={}", c.displayId(), changedKeys(old, c));
            }
        }
        for (TargetConfig gone : running.values()) {
            admin.stopConfigured(gone.kind(), gone.id());
            log.info("reload: target removed target=\"{}\" queued entries stay on disk", gone.displayId());
        }
        Summary s = new Summary(added, replaced, running.size(), unchanged, failed);
        log.info("reload done added={} replaced={} removed={} unchanged={} failed={}",
            s.added(), s.replaced(), s.removed(), s.unchanged(), s.failed());
        return s;
    }

    // Key names only: a secret's value never reaches the log.
    private static String changedKeys(TargetConfig old, TargetConfig now) {
        List<Map<String, String>> before = TargetView.keyValues(old);
        List<Map<String, String>> after = TargetView.keyValues(now);
        List<String> changed = new ArrayList<>();
        after.stream().filter(kv -> !before.contains(kv)).forEach(kv -> changed.add(kv.get("key")));
        before.stream().filter(kv -> !after.contains(kv) && !changed.contains(kv.get("key")))
            .forEach(kv -> changed.add(kv.get("key")));
        if (!Objects.equals(old.password(), now.password()) && !changed.contains("password")) {
            changed.add("password");
        }
        if (!Objects.equals(old.token(), now.token()) && !changed.contains("token")) {
            changed.add("token");
        }
        return String.join(",", changed);
    }

    private static String key(TargetConfig c) {
        return c.kind().label() + "/" + c.id();
    }
}

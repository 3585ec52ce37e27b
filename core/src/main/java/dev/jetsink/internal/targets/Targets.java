package dev.jetsink.internal.targets;

import dev.jetsink.internal.config.JetsinkConfig;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.delivery.StreamConcurrency;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.failed.FailedStoreMaintenance;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Every enabled target of one kind (DESIGN.md "Daemon"); the daemon's ingest admits a request's
 * events on each addressed target, all or nothing. One implementation serves notify and audit.
 * Targets can be added and removed while running (the admin API, DESIGN.md "Admin API"); readers
 * always see a consistent list.
 */
public final class Targets implements AutoCloseable {

    private final TargetKind kind;
    private final TargetRuntime runtime;
    // Replaced whole under this object's lock, read without it: sends never wait for an add.
    private volatile List<NatsTarget> targets;
    private final FailedStoreMaintenance maintenance;

    private Targets(TargetKind kind, TargetRuntime runtime, List<NatsTarget> targets, FailedStoreMaintenance maintenance) {
        this.kind = kind;
        this.runtime = runtime;
        this.targets = List.copyOf(targets);
        this.maintenance = maintenance;
    }

    /**
     * Opens and starts every enabled target of {@code kind} in {@code config}. A target whose
     * stream is sealed starts in the failed-init state (it answers sends with
     * {@link dev.jetsink.TargetUnavailableException}); the others run normally.
     */
    public static Targets start(TargetKind kind, JetsinkConfig config, TargetRuntime runtime) {
        List<TargetConfig> configs = config.kindEnabled(kind) ? config.targets(kind) : List.of();
        TargetRuntime rt = kind == TargetKind.NOTIFY
            ? runtime.withNotifyConcurrency(new StreamConcurrency(config.notifyStreamConcurrency()))
            : runtime;
        return start(kind, configs, rt);
    }

    /** Opens and starts the given targets of {@code kind}. */
    public static Targets start(TargetKind kind, List<TargetConfig> configs, TargetRuntime runtime) {
        List<NatsTarget> opened = new ArrayList<>();
        FailedStoreMaintenance maintenance = FailedStoreMaintenance.start();
        try {
            for (TargetConfig c : configs) {
                if (c.kind() != kind) {
                    throw new IllegalArgumentException(c.displayId() + " is not a " + kind.label() + " target");
                }
                // a queue directory the disk refuses defers only this target's queue; the others still start
                NatsTarget t = NatsTarget.openDeferringQueue(c, runtime);
                opened.add(t);
                t.failedStore().ifPresent(maintenance::add);
            }
        } catch (RuntimeException e) {
            opened.forEach(NatsTarget::close);
            maintenance.close();
            throw e;
        }
        opened.forEach(NatsTarget::start);
        return new Targets(kind, runtime, opened, maintenance);
    }

    public TargetKind kind() {
        return kind;
    }

    public List<NatsTarget> targets() {
        return targets;
    }

    /** The target with this id (e.g. {@code primary}, or {@code _} for the default instance). */
    public Optional<NatsTarget> target(String id) {
        return targets.stream().filter(t -> t.config().id().equals(id)).findFirst();
    }

    /**
     * Opens and starts a target of this kind at runtime with the same runtime as the others (for
     * notify, the shared stream concurrency of DESIGN.md "Delivery"), and adds it to the set.
     *
     * @throws IllegalArgumentException when {@code config} is of the other kind
     * @throws IllegalStateException when a target with the same id is already running
     * @throws dev.jetsink.QueueLockedException when another process holds its queue
     */
    public synchronized NatsTarget add(TargetConfig config) {
        if (config.kind() != kind) {
            throw new IllegalArgumentException(config.displayId() + " is not a " + kind.label() + " target");
        }
        if (target(config.id()).isPresent()) {
            throw new IllegalStateException(config.displayId() + " is already running");
        }
        NatsTarget t = NatsTarget.open(config, runtime);
        t.failedStore().ifPresent(maintenance::add);
        t.start();
        List<NatsTarget> next = new ArrayList<>(targets);
        next.add(t);
        targets = List.copyOf(next);
        return t;
    }

    /**
     * Takes the target with this id out of the set, then stops it (publishes in flight get
     * {@code grace}); its queued entries stay on disk for a target later opened on the same queue.
     *
     * @return the removed, closed target; empty when none had this id
     */
    public synchronized Optional<NatsTarget> remove(String id, Duration grace) {
        Optional<NatsTarget> found = target(id);
        found.ifPresent(t -> {
            targets = targets.stream().filter(o -> o != t).toList();
            t.failedStore().ifPresent(maintenance::remove);
            t.close(grace);
        });
        return found;
    }

    /** Stops every target, giving in-flight publishes up to {@code grace}; queued entries stay. */
    public synchronized void close(Duration grace) {
        targets.parallelStream().forEach(t -> t.close(grace));
        maintenance.close();
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }
}

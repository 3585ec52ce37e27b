package dev.jetsink.server.chaos;

import dev.jetsink.testkit.FaultProxy;
import io.nats.client.Message;
import dev.jetsink.server.testing.Tmpfs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Plays a {@link Schedule} against the {@link Stage}: each step starts at its time on a thread of
 * its own (so faults overlap), takes its resource's lock, injects, holds, heals. What happened —
 * and any surprise, such as a daemon that did not exit 0 on SIGTERM — goes to the history.
 */
final class Nemesis {

    private final Stage stage;
    private final History history;
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
    private final List<Schedule.Step> done = new CopyOnWriteArrayList<>();
    /** Things the system did that it should not have (checked by the campaign). */
    final List<String> anomalies = new CopyOnWriteArrayList<>();
    /** Faults that could not be injected or healed, for the report (the final heal repairs them). */
    final List<String> troubles = new CopyOnWriteArrayList<>();

    Nemesis(Stage stage, History history) {
        this.stage = stage;
        this.history = history;
    }

    /** Runs every step of {@code schedule}; returns when the last one has healed. */
    void play(Schedule schedule) throws InterruptedException {
        ScheduledExecutorService pool = Executors.newScheduledThreadPool(16, r -> {
            Thread t = new Thread(r, "chaos-nemesis");
            t.setDaemon(true);
            return t;
        });
        try {
            for (Schedule.Step step : schedule.steps()) {
                pool.schedule(() -> run(step), step.at().toMillis(), TimeUnit.MILLISECONDS);
            }
            pool.shutdown();
            if (!pool.awaitTermination(schedule.length().toMillis() + 300_000, TimeUnit.MILLISECONDS)) {
                troubles.add("nemesis steps still running 5 min after the campaign's end");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The steps actually injected. */
    List<Schedule.Step> done() {
        return new ArrayList<>(done);
    }

    private void run(Schedule.Step step) {
        List<ReentrantLock> held = step.kind().resources(step.subject()).stream()
            .map(res -> locks.computeIfAbsent(res, k -> new ReentrantLock())).toList();
        held.forEach(ReentrantLock::lock);
        try {
            history.say("fault-start " + step.describe());
            inject(step);
            history.say("fault-end #" + step.index());
        } catch (Exception e) {
            troubles.add(step.describe() + ": " + e);
            history.say("fault-trouble " + step.describe() + ": " + e.toString().lines().findFirst().orElse(""));
        } finally {
            held.forEach(ReentrantLock::unlock);
        }
    }

    private void inject(Schedule.Step step) throws Exception {
        switch (step.kind()) {
            case DAEMON_KILL -> {
                DaemonSlot d = stage.daemons.get(step.subject());
                d.kill();
                done.add(step);
                Thread.sleep(step.hold().toMillis());
                d.start();
            }
            case DAEMON_TERM -> {
                DaemonSlot d = stage.daemons.get(step.subject());
                int code = d.terminate();
                done.add(step);
                if (code != 0) {
                    anomalies.add(step.describe() + ": daemon exited " + code + " after SIGTERM");
                    history.say("anomaly daemon " + d.name + " exited " + code + " after SIGTERM");
                }
                Thread.sleep(step.hold().toMillis());
                d.start();
            }
            case BROKER_KILL -> {
                stage.cluster.kill(step.subject());
                done.add(step);
                Thread.sleep(step.hold().toMillis());
                stage.restartNode(step.subject());
            }
            case LEADER_PAUSE -> {
                int leader = stage.cluster.streamLeader(Stage.STREAM);
                stage.node(leader).pause();
                done.add(step);
                history.log("paused leader n" + (leader + 1));
                try {
                    Thread.sleep(step.hold().toMillis());
                } finally {
                    stage.node(leader).resume();
                }
            }
            case LEADER_STEPDOWN -> {
                Message answer = stage.admin.request("$JS.API.STREAM.LEADER.STEPDOWN." + Stage.STREAM, new byte[0],
                    Duration.ofSeconds(5));
                done.add(step);
                history.log("stepdown answer " + (answer == null ? "none"
                    : new String(answer.getData(), StandardCharsets.UTF_8)));
            }
            case PROXY_CUT, PROXY_BLACKHOLE, PROXY_SLOW -> {
                List<FaultProxy> hit = proxiesOf(step);
                for (FaultProxy p : hit) {
                    switch (step.kind()) {
                        case PROXY_CUT -> p.refuse();
                        case PROXY_BLACKHOLE -> p.blackhole();
                        default -> p.delay(step.delay());
                    }
                }
                done.add(step);
                try {
                    Thread.sleep(step.hold().toMillis());
                } finally {
                    hit.forEach(FaultProxy::pass);
                }
            }
            case DISK_FULL -> {
                Tmpfs disk = stage.disks.get(step.subject());
                Path ballast = disk.fill("ballast-" + step.index());
                done.add(step);
                try {
                    Thread.sleep(step.hold().toMillis());
                } finally {
                    Files.delete(ballast);
                }
            }
            case DISK_READONLY -> {
                DaemonSlot d = stage.daemons.get(step.subject());
                Tmpfs disk = stage.disks.get(step.subject());
                d.kill();
                try {
                    disk.readOnly(true);
                    done.add(step);
                    try {
                        d.start();
                        Thread.sleep(step.hold().toMillis());
                    } finally {
                        disk.readOnly(false);
                    }
                } finally {
                    d.start();
                }
            }
            default -> throw new IllegalStateException("unknown fault " + step.kind());
        }
    }

    private List<FaultProxy> proxiesOf(Schedule.Step step) {
        List<FaultProxy> own = stage.proxies.get(step.subject());
        return step.node() < 0 ? own : List.of(own.get(step.node()));
    }
}

package dev.jetsink.server.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * The nemesis' plan: every fault, its start, its target and its hold, drawn from the seed alone
 * (never from timing), so the same seed replays the same schedule. Faults overlap; two faults on
 * one resource ({@link FaultKind#resource}) never do, counting a margin for the restart.
 */
record Schedule(long seed, Duration length, List<Step> steps) {

    /** Daemons and broker nodes the schedule can name. */
    static final int DAEMONS = 2;
    static final int NODES = 3;
    /** Room left after a hold for a restart to finish before the resource is used again. */
    private static final long RESTART_MARGIN_MS = 5_000;

    /**
     * One fault.
     *
     * @param at when it starts, from the campaign's start
     * @param subject the daemon (0, 1) or, for {@link FaultKind#BROKER_KILL}, the node
     * @param node for proxy faults the node whose proxy is hit, -1 for all three
     * @param hold how long the fault lasts before its heal
     * @param delay for {@link FaultKind#PROXY_SLOW} the delay per chunk
     */
    record Step(int index, Duration at, FaultKind kind, int subject, int node, Duration hold, Duration delay) {

        String describe() {
            StringBuilder s = new StringBuilder("#").append(index).append(" at=").append(at.toMillis()).append("ms ")
                .append(kind.label);
            switch (kind) {
                case DAEMON_KILL, DAEMON_TERM, DISK_FULL, DISK_READONLY -> s.append(" daemon=").append(daemonName(subject));
                case BROKER_KILL -> s.append(" node=n").append(subject + 1);
                case PROXY_CUT, PROXY_BLACKHOLE, PROXY_SLOW -> s.append(" daemon=").append(daemonName(subject))
                    .append(" proxies=").append(node < 0 ? "all" : "n" + (node + 1));
                default -> { }
            }
            if (kind == FaultKind.PROXY_SLOW) {
                s.append(" delay=").append(delay.toMillis()).append("ms");
            }
            if (!hold.isZero()) {
                s.append(" hold=").append(hold.toMillis()).append("ms");
            }
            return s.toString();
        }
    }

    static String daemonName(int i) {
        return i == 0 ? "a" : "b";
    }

    /** The schedule of {@code seed} for a campaign of {@code length}. */
    static Schedule of(long seed, Duration length) {
        Random r = new Random(seed);
        int totalWeight = 0;
        for (FaultKind k : FaultKind.values()) {
            totalWeight += k.weight;
        }
        Map<String, Long> busyUntil = new HashMap<>();
        List<Step> steps = new ArrayList<>();
        long end = length.toMillis() - 5_000;
        long t = 2_000 + r.nextInt(3_000);
        while (t < end) {
            FaultKind kind = pick(r.nextInt(totalWeight));
            int subject = kind == FaultKind.BROKER_KILL ? r.nextInt(NODES) : r.nextInt(DAEMONS);
            int node = r.nextBoolean() ? -1 : r.nextInt(NODES);
            long hold = switch (kind) {
                case DAEMON_KILL, DAEMON_TERM -> 300 + r.nextInt(2_700);
                case BROKER_KILL, LEADER_PAUSE -> 1_000 + r.nextInt(5_000);
                case LEADER_STEPDOWN -> 0;
                case PROXY_CUT, PROXY_BLACKHOLE, PROXY_SLOW -> 1_000 + r.nextInt(9_000);
                case DISK_FULL, DISK_READONLY -> 1_000 + r.nextInt(7_000);
            };
            long delay = 20 + r.nextInt(380);
            List<String> resources = kind.resources(subject);
            long at = t;
            if (resources.stream().allMatch(res -> busyUntil.getOrDefault(res, -1L) < at)) {
                resources.forEach(res -> busyUntil.put(res, at + hold + RESTART_MARGIN_MS));
                steps.add(new Step(steps.size(), Duration.ofMillis(t), kind, subject,
                    kind.hitsProxies() ? node : -1, Duration.ofMillis(hold),
                    kind == FaultKind.PROXY_SLOW ? Duration.ofMillis(delay) : Duration.ZERO));
            }
            t += 1_000 + r.nextInt(5_000);
        }
        return new Schedule(seed, length, List.copyOf(steps));
    }

    private static FaultKind pick(int draw) {
        for (FaultKind k : FaultKind.values()) {
            if (draw < k.weight) {
                return k;
            }
            draw -= k.weight;
        }
        throw new IllegalStateException("weights");
    }

    /** Faults by kind, in {@link FaultKind} order, as the result line prints them. */
    static String countByKind(List<Step> steps) {
        Map<FaultKind, Integer> counts = new EnumMap<>(FaultKind.class);
        steps.forEach(s -> counts.merge(s.kind(), 1, Integer::sum));
        return counts.entrySet().stream().map(e -> e.getKey().label + ":" + e.getValue())
            .collect(Collectors.joining(","));
    }

    /** Every step, one a line. */
    String describe() {
        return "schedule seed=" + seed + " minutes=" + length.toMinutes() + " faults=" + steps.size() + "\n"
            + steps.stream().map(s -> "  " + s.describe()).collect(Collectors.joining("\n"));
    }
}

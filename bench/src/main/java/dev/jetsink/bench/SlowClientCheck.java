package dev.jetsink.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Slow clients against the daemon's HTTP front: a normal client at a fixed rate ({@link RawHttpLoad},
 * latency from each request's scheduled time) measured in windows alone and windows while
 * {@link StalledConnections} sit on half a request header, interleaved over several rounds (the
 * order alternates: alone first, then stalled first). The goal is a p99 with stalled connections
 * at most twice the p99 without.
 *
 * <p>Why rounds: on this shared disk a single segment fsync of 100-180 ms lands in one window or
 * another and sets that window's p99 whatever else happens (every answer waits for the group
 * commit). One window of each kind gave ratios from 0.79x to 10.6x for one build. The median of
 * several windows of each kind, taken in alternating order, compares the two conditions instead
 * of where the disk stalled.
 */
final class SlowClientCheck {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration GRACE = Duration.ofSeconds(10);

    private SlowClientCheck() {
    }

    /**
     * {@code rounds} rounds of one window alone and one with {@code count} stalled connections
     * open, {@code seconds} each; the ratio of the windows' median p99s.
     */
    static void run(DaemonProcess daemon, byte[] body, int rate, int seconds, int rounds, int count,
                    Map<String, Object> r) throws Exception {
        r.put("stall_rate", rate);
        r.put("stall_seconds", seconds);
        r.put("stall_rounds", rounds);
        r.put("stalled_connections", count);
        List<FixedRate> alone = new ArrayList<>();
        List<FixedRate> stalled = new ArrayList<>();
        int opened = 0;
        int broken = 0;
        for (int round = 1; round <= rounds; round++) {
            boolean aloneFirst = round % 2 == 1;
            for (int half = 0; half < 2; half++) {
                if ((half == 0) == aloneFirst) {
                    FixedRate a = fixedRate(daemon, body, rate, seconds);
                    alone.add(a);
                    System.out.printf("round %d alone        %s%n", round, a.summary());
                } else {
                    try (StalledConnections slow = StalledConnections.open(daemon.host(), daemon.port(), count)) {
                        Thread.sleep(StalledConnections.DRIBBLE_PERIOD.toMillis());
                        FixedRate w = fixedRate(daemon, body, rate, seconds);
                        stalled.add(w);
                        opened = Math.min(opened == 0 ? Integer.MAX_VALUE : opened, slow.opened());
                        broken += slow.broken();
                        System.out.printf("round %d %d stalled  %s (%d opened, %d closed by the server)%n", round,
                            count, w.summary(), slow.opened(), slow.broken());
                    }
                }
            }
        }
        double aloneP99 = median(alone.stream().mapToDouble(FixedRate::p99Ms).toArray());
        double stalledP99 = median(stalled.stream().mapToDouble(FixedRate::p99Ms).toArray());
        double ratio = Math.round(100 * stalledP99 / aloneP99) / 100.0;
        boolean lowerBound = stalled.stream().anyMatch(FixedRate::lowerBound);
        System.out.printf("median p99 alone %.2f ms, with %d stalled %.2f ms: %.2f x the baseline%s%n", aloneP99, count,
            stalledP99, ratio, lowerBound ? " (at least: requests failed, counted at their time to fail)" : "");
        r.put("stall_baseline_p99_ms", aloneP99);
        r.put("stall_baseline_p99_ms_each", alone.stream().map(FixedRate::p99Ms).toList());
        r.put("stall_baseline_failures", alone.stream().mapToLong(FixedRate::failures).sum());
        r.put("stall_baseline_cpu_pressure_pct", median(alone.stream().mapToDouble(FixedRate::cpuPressurePct).toArray()));
        r.put("stall_p99_ms", stalledP99);
        r.put("stall_p99_ms_each", stalled.stream().map(FixedRate::p99Ms).toList());
        r.put("stall_failures", stalled.stream().mapToLong(FixedRate::failures).sum());
        r.put("stall_requests", stalled.stream().mapToInt(FixedRate::requests).sum());
        r.put("stall_p99_is_lower_bound", lowerBound);
        r.put("stall_cpu_pressure_pct", median(stalled.stream().mapToDouble(FixedRate::cpuPressurePct).toArray()));
        r.put("stalled_opened_min", opened);
        r.put("stalled_closed_by_server", broken);
        r.put("stall_p99_ratio", ratio);
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : Math.round(100 * (v[n / 2 - 1] + v[n / 2]) / 2) / 100.0;
    }

    /**
     * One fixed-rate run; p99 over every request, a failed one counted at its time to fail (so with
     * failures above 1 % the p99 is a lower bound).
     */
    private record FixedRate(int requests, long failures, double p50Ms, double p99Ms, double cpuPressurePct) {
        boolean lowerBound() {
            return failures > requests / 100;
        }

        String summary() {
            return String.format("%d requests, %d failed, p50 %.2f ms, p99 %.2f ms, cpu pressure %.1f %%",
                requests, failures, p50Ms, p99Ms, cpuPressurePct);
        }
    }

    private static FixedRate fixedRate(DaemonProcess daemon, byte[] body, int rate, int seconds) throws Exception {
        int total = rate * seconds;
        long[] http = new long[total];
        AtomicLong failures = new AtomicLong();
        CpuPressure before = CpuPressure.sample();
        String run = Long.toString(System.nanoTime());
        RawHttpLoad.run(daemon.host(), daemon.port(), rate, total, i -> Wrk.numbered(body, run + "-" + i), new long[total],
            http, failures,
            READ_TIMEOUT, GRACE);
        double pressure = CpuPressure.sample().percentSince(before).orElse(-1);
        Arrays.sort(http);
        return new FixedRate(total, failures.get(), millis(http, 0.50), millis(http, 0.99), pressure);
    }

    private static double millis(long[] sortedMicros, double q) {
        int i = (int) Math.min(sortedMicros.length - 1, Math.ceil(q * sortedMicros.length) - 1);
        return Math.round(sortedMicros[Math.max(0, i)] / 10.0) / 100.0;
    }
}

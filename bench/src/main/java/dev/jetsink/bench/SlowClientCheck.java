package dev.jetsink.bench;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Slow clients against the daemon's HTTP front: a normal client at a fixed rate ({@link RawHttpLoad},
 * latency from each request's scheduled time) measured alone, then while {@link StalledConnections}
 * sit on half a request header, then once more after they close. The goal is a p99 with stalled
 * connections at most twice the p99 without.
 */
final class SlowClientCheck {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration GRACE = Duration.ofSeconds(10);

    private SlowClientCheck() {
    }

    /** A fixed-rate client's p99 alone, with {@code count} stalled connections open, and after they close. */
    static void run(DaemonProcess daemon, byte[] body, int rate, int seconds, int count,
                    Map<String, Object> r) throws Exception {
        r.put("stall_rate", rate);
        r.put("stall_seconds", seconds);
        r.put("stalled_connections", count);
        FixedRate alone = fixedRate(daemon, body, rate, seconds);
        System.out.println("fixed rate alone " + alone.summary());
        FixedRate withStalled;
        int opened;
        int broken;
        try (StalledConnections slow = StalledConnections.open(daemon.host(), daemon.port(), count)) {
            opened = slow.opened();
            Thread.sleep(StalledConnections.DRIBBLE_PERIOD.toMillis());
            withStalled = fixedRate(daemon, body, rate, seconds);
            broken = slow.broken();
        }
        System.out.printf("with %d stalled  %s (%d of %d stalled connections opened, %d closed by the server)%n",
            count, withStalled.summary(), opened, count, broken);
        FixedRate after = fixedRate(daemon, body, rate, Math.min(5, seconds));
        System.out.println("after they close " + after.summary());
        double ratio = Math.round(100 * withStalled.p99Ms / alone.p99Ms) / 100.0;
        System.out.printf("                 p99 %.2f x the baseline%s%n", ratio,
            withStalled.lowerBound() ? " (at least: requests failed, counted at their time to fail)" : "");
        r.put("stall_baseline_p99_ms", alone.p99Ms);
        r.put("stall_baseline_failures", alone.failures);
        r.put("stall_baseline_cpu_pressure_pct", alone.cpuPressurePct);
        r.put("stall_p99_ms", withStalled.p99Ms);
        r.put("stall_failures", withStalled.failures);
        r.put("stall_requests", withStalled.requests);
        r.put("stall_p99_is_lower_bound", withStalled.lowerBound());
        r.put("stall_cpu_pressure_pct", withStalled.cpuPressurePct);
        r.put("stalled_opened", opened);
        r.put("stalled_closed_by_server", broken);
        r.put("stall_p99_ratio", ratio);
        r.put("after_stall_p99_ms", after.p99Ms);
        r.put("after_stall_failures", after.failures);
        r.put("after_stall_cpu_pressure_pct", after.cpuPressurePct);
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

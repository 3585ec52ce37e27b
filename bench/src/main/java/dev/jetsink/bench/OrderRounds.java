package dev.jetsink.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The daemon with the default order against one with {@code ORDER=key}, alternated round by round
 * (docs/BENCHMARKS.md "What order per object costs"): each side's rate and daemon CPU per unit, the
 * ratio of the rates, and the CPU pressure of every round.
 */
final class OrderRounds {

    /** One measured round of a daemon: its rate, its CPU per unit and the host's CPU pressure. */
    record Round(double rate, double cpuMicros, double pressure) {
    }

    /** Measures one round against a daemon. */
    interface Measure {
        Round of(DaemonProcess daemon) throws Exception;
    }

    private OrderRounds() {
    }

    /**
     * The warm-ups before the rounds: two for each side, alternated. Both daemons are started for the
     * comparison, so both come to it with the same JIT history; on two busy cores C2 still compiles
     * through a first 20 s warm-up (measured 2026-12-07: a third of a fresh daemon's CPU next to its
     * HTTP threads' during its first ordered rounds, against a daemon warm from earlier rounds).
     */
    static List<DaemonProcess> warmUpOrder(DaemonProcess plain, DaemonProcess ordered) {
        return List.of(plain, ordered, ordered, plain);
    }

    /**
     * Runs {@code rounds} pairs, alternating which side goes first, and returns the figures under
     * {@code default_<rate>}, {@code ordered_<rate>}, {@code ratio_ordered_vs_default},
     * {@code default_cpu_us_per_<unit>}, {@code ordered_cpu_us_per_<unit>} and {@code cpu_pressure_pct}.
     */
    static Map<String, Object> compare(String what, String rate, String unit, DaemonProcess plain, DaemonProcess ordered,
                                       int rounds, Measure measure) throws Exception {
        List<Double> plainRate = new ArrayList<>();
        List<Double> orderedRate = new ArrayList<>();
        List<Double> plainCpu = new ArrayList<>();
        List<Double> orderedCpu = new ArrayList<>();
        List<Double> pressure = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            for (boolean plainTurn : round % 2 == 0 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                Round r = measure.of(plainTurn ? plain : ordered);
                (plainTurn ? plainRate : orderedRate).add(r.rate());
                (plainTurn ? plainCpu : orderedCpu).add(r.cpuMicros());
                pressure.add(r.pressure());
            }
        }
        List<Double> ratio = Spread.ratios(orderedRate, plainRate);
        System.out.printf("%s: ORDER=key %s %s, default %s, ratio %s (goal >= 0.9); CPU per %s %s against %s us%n", what,
            Spread.text(orderedRate, "%.0f"), rate, Spread.text(plainRate, "%.0f"), Spread.text(ratio, "%.2f"), unit,
            Spread.text(orderedCpu, "%.1f"), Spread.text(plainCpu, "%.1f"));
        String key = rate.equals("events/s") ? "eps" : "rps";
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("default_" + key, Spread.of(plainRate, 0));
        r.put("ordered_" + key, Spread.of(orderedRate, 0));
        r.put("ratio_ordered_vs_default", Spread.of(ratio, 2));
        r.put("default_cpu_us_per_" + unit, Spread.of(plainCpu, 1));
        r.put("ordered_cpu_us_per_" + unit, Spread.of(orderedCpu, 1));
        r.put("cpu_pressure_pct", Spread.of(pressure, 1));
        return r;
    }
}

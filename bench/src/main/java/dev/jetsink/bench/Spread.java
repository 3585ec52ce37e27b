package dev.jetsink.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of one measure over a bench's rounds: min, median, max and every round's value, so a
 * reader sees how far the host moved them. Ratios are medians of per-round ratios (a jetsink round
 * and its baseline round run back to back), not ratios of medians.
 */
final class Spread {

    private Spread() {
    }

    static double median(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values");
        }
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** {@code {min, median, max, rounds}} of {@code values}, rounded to {@code decimals}. */
    static Map<String, Object> of(List<Double> values, int decimals) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("min", round(values.stream().mapToDouble(Double::doubleValue).min().orElseThrow(), decimals));
        m.put("median", round(median(values), decimals));
        m.put("max", round(values.stream().mapToDouble(Double::doubleValue).max().orElseThrow(), decimals));
        m.put("rounds", values.stream().map(v -> round(v, decimals)).toList());
        return m;
    }

    /** Per-round {@code a[i] / b[i]}. */
    static List<Double> ratios(List<Double> a, List<Double> b) {
        if (a.size() != b.size()) {
            throw new IllegalArgumentException("unpaired rounds: " + a.size() + " and " + b.size());
        }
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            out.add(a.get(i) / b.get(i));
        }
        return out;
    }

    /** "median (min-max)" for a report line. */
    static String text(List<Double> values, String format) {
        return String.format(format + " (" + format + "-" + format + ")", median(values),
            values.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
            values.stream().mapToDouble(Double::doubleValue).max().orElseThrow());
    }

    static double round(double v, int decimals) {
        double f = Math.pow(10, decimals);
        return Math.round(v * f) / f;
    }
}

package dev.jetsink.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Draws the latency distributions {@link LatencyBench} keeps in {@code bench/results/latest.json}
 * (request sent to event stored, every event of every round) as an SVG histogram per section: a
 * bar per log-spaced bucket, the count on a log scale so the tail shows beside the bulk, and the
 * section's median p50 and p99 marked. Pure string building, like {@link BenchChart}.
 *
 * <p>Usage: {@code LatencyChart RESULTS.json OUT.svg}.
 */
public final class LatencyChart {
    private static final int WIDTH = 720;
    private static final int PLOT_HEIGHT = 160;
    private static final int LEFT = 60;

    private LatencyChart() {
    }

    public static void main(String[] args) throws Exception {
        JsonNode root = new ObjectMapper().readTree(Path.of(args[0]).toFile());
        StringBuilder body = new StringBuilder();
        int y = 10;
        for (String name : List.of("latency", "latency_5000", "latency_r3", "latency_2000", "latency_2000_r3")) {
            JsonNode section = root.path(name);
            if (section.path("histogram").isArray()) {
                y = panel(body, y, section);
            }
        }
        if (y == 10) {
            System.out.println("no latency histogram in " + args[0] + "; nothing drawn");
            return;
        }
        String svg = String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            + "font-family=\"sans-serif\" font-size=\"12\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n%s</svg>%n",
            WIDTH, y, body);
        Files.writeString(Path.of(args[1]), svg, StandardCharsets.UTF_8);
        System.out.println("wrote " + args[1]);
    }

    /** One section's histogram below {@code top}; returns the y below it. */
    private static int panel(StringBuilder out, int top, JsonNode section) {
        List<String> bounds = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        for (JsonNode b : section.get("histogram")) {
            bounds.add(b.get("le_ms").asText());
            counts.add(b.get("count").asLong());
        }
        // drop empty buckets at both ends so the bars are wide enough to read
        int first = 0;
        int last = counts.size() - 1;
        while (first < last && counts.get(first) == 0) {
            first++;
        }
        while (last > first && counts.get(last) == 0) {
            last--;
        }
        long max = counts.stream().mapToLong(Long::longValue).max().orElse(1);
        double logMax = Math.log10(Math.max(10, max));
        String title = String.format(Locale.ROOT, "request to stored, %,d events/s, R%d, %d rounds of %,d events:"
                + " p50 %s ms, p99 %s ms (disk fsync p99 %s ms, CPU pressure %s %%)",
            section.path("offered_eps").asInt(), section.path("replicas").asInt(1), section.path("rounds").asInt(),
            section.path("events_per_round").asLong(), median(section, "p50_ms"), median(section, "p99_ms"),
            median(section, "disk_fsync_p99_ms"), median(section, "cpu_pressure_pct"));
        out.append(text(10, top + 14, title, "bold"));
        int plotTop = top + 26;
        int plotBottom = plotTop + PLOT_HEIGHT;
        int n = last - first + 1;
        double barWidth = (WIDTH - LEFT - 20) / (double) n;
        for (int decade = 0; decade <= (int) Math.ceil(logMax); decade++) {
            int gy = plotBottom - (int) Math.round(PLOT_HEIGHT * decade / logMax);
            if (gy < plotTop) {
                break;
            }
            out.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#e2e8f0\"/>%n",
                LEFT, gy, WIDTH - 20, gy));
            out.append(text(8, gy + 4, String.format(Locale.ROOT, "%,d", (long) Math.pow(10, decade)), "normal"));
        }
        double p50 = number(section, "p50_ms");
        double p99 = number(section, "p99_ms");
        for (int i = 0; i < n; i++) {
            long count = counts.get(first + i);
            double x = LEFT + i * barWidth;
            if (count > 0) {
                int h = (int) Math.max(1, Math.round(PLOT_HEIGHT * Math.log10(count + 1) / logMax));
                out.append(String.format(Locale.ROOT,
                    "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#2b6cb0\"><title>&#8804; %s ms: %,d</title></rect>%n",
                    x + 1, plotBottom - h, barWidth - 2, h, bounds.get(first + i), count));
            }
            // label every doubling (every fourth bucket) under the axis
            if ((first + i) % 4 == 3 || i == n - 1) {
                out.append(text((int) x, plotBottom + 14, bounds.get(first + i), "normal"));
            }
        }
        marker(out, "p50", p50, bounds, first, n, barWidth, plotTop, plotBottom);
        marker(out, "p99", p99, bounds, first, n, barWidth, plotTop, plotBottom);
        out.append(text(LEFT, plotBottom + 30, "latency bucket upper bound, ms (log scale); events per bucket (log scale)",
            "normal"));
        return plotBottom + 48;
    }

    /** A dashed line at the bucket holding {@code ms}. */
    private static void marker(StringBuilder out, String label, double ms, List<String> bounds, int first, int n,
                               double barWidth, int top, int bottom) {
        for (int i = 0; i < n; i++) {
            String bound = bounds.get(first + i);
            if (bound.equals("+Inf") || ms <= Double.parseDouble(bound)) {
                int x = (int) Math.round(LEFT + (i + 0.5) * barWidth);
                out.append(String.format(Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#c53030\" stroke-dasharray=\"4 3\"/>%n",
                    x, top, x, bottom));
                out.append(text(x + 3, top + 10, label, "normal"));
                return;
            }
        }
    }

    private static String median(JsonNode section, String field) {
        JsonNode f = section.path(field);
        return (f.isObject() ? f.path("median") : f).asText("?");
    }

    private static double number(JsonNode section, String field) {
        JsonNode f = section.path(field);
        return (f.isObject() ? f.path("median") : f).asDouble();
    }

    private static String text(int x, int y, String s, String weight) {
        return String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"%s\">%s</text>%n", x, y, weight,
            s.replace("&", "&amp;").replace("<", "&lt;"));
    }
}

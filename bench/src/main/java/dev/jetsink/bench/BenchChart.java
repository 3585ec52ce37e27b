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
 * Draws {@code bench/results/latest.json} as an SVG bar chart (throughput per variant, one panel
 * per benchmark section present), for docs/BENCHMARKS.md. Pure string building: no dependency.
 *
 * <p>Usage: {@code BenchChart RESULTS.json OUT.svg}.
 */
public final class BenchChart {

    private record Bar(String label, double value, boolean jetsink) {
    }

    private record Panel(String title, List<Bar> bars) {
    }

    private BenchChart() {
    }

    public static void main(String[] args) throws Exception {
        JsonNode root = new ObjectMapper().readTree(Path.of(args[0]).toFile());
        List<Panel> panels = new ArrayList<>();
        JsonNode queue = root.path("queue").path("by_producers");
        for (String p : List.of("1", "8", "64")) {
            JsonNode at = queue.path(p);
            if (at.has("jetsink_eps")) {
                panels.add(new Panel("durable enqueue, " + p + " producer" + (p.equals("1") ? "" : "s") + " (events/s)",
                    List.of(new Bar("jetsink queue", median(at.get("jetsink_eps")), true),
                        new Bar("file per event", median(at.get("baseline_eps")), false))));
            }
        }
        JsonNode drain = root.path("drain");
        if (drain.has("jetsink_eps")) {
            panels.add(new Panel("drain 100 000 events to JetStream (events/s)", List.of(
                new Bar("jetsink, window 1024", median(drain.get("jetsink_eps")), true),
                new Bar("raw jnats publishAsync", median(drain.get("raw_eps")), false),
                new Bar("jetsink, window 1", median(drain.get("window1_eps")), false),
                new Bar("baseline peer", median(drain.get("baseline_eps")), false))));
        }
        JsonNode ingest = root.path("ingest");
        if (ingest.has("jetsink_rps")) {
            panels.add(new Panel("HTTP ingest, one event per POST (per second, median of rounds)", List.of(
                new Bar("jetsink requests", median(ingest.get("jetsink_rps")), true),
                new Bar("raw jnats publishAsync", median(ingest.get("raw_eps")), false),
                new Bar("nginx return 200", median(ingest.get("nginx_rps")), false))));
        }
        root.path("batch").properties().forEach(form -> {
            if (form.getValue().has("jetsink_eps")) {
                panels.add(new Panel("batched ingest, " + form.getKey().replace('_', ' ') + " (events/s, median of rounds)",
                    List.of(new Bar("jetsink, POST to stored", median(form.getValue().get("jetsink_eps")), true),
                        new Bar("raw jnats publishAsync", median(form.getValue().get("raw_eps")), false))));
            }
        });
        Files.writeString(Path.of(args[1]), svg(panels), StandardCharsets.UTF_8);
        System.out.println("wrote " + args[1]);
    }

    /** A figure measured in rounds ({@link Spread}) is drawn at its median; a single value as it is. */
    private static double median(JsonNode figure) {
        return figure.isObject() ? figure.path("median").asDouble() : figure.asDouble();
    }

    private static String svg(List<Panel> panels) {
        int width = 720;
        int barHeight = 22;
        int labelWidth = 190;
        StringBuilder body = new StringBuilder();
        int y = 10;
        for (Panel panel : panels) {
            body.append(text(10, y + 14, panel.title(), "bold"));
            y += 24;
            double max = panel.bars().stream().mapToDouble(Bar::value).max().orElse(1);
            for (Bar bar : panel.bars()) {
                int w = (int) Math.max(1, Math.round((width - labelWidth - 110) * bar.value() / max));
                body.append(text(10, y + 15, bar.label(), "normal"));
                body.append(String.format(Locale.ROOT,
                    "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>%n",
                    labelWidth, y, w, barHeight - 4, bar.jetsink() ? "#2b6cb0" : "#a0aec0"));
                body.append(text(labelWidth + w + 6, y + 15, String.format(Locale.ROOT, "%,.0f", bar.value()), "normal"));
                y += barHeight;
            }
            y += 14;
        }
        return String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            + "font-family=\"sans-serif\" font-size=\"13\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n%s</svg>%n",
            width, y, body);
    }

    private static String text(int x, int y, String s, String weight) {
        return String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"%s\">%s</text>%n", x, y, weight,
            s.replace("&", "&amp;").replace("<", "&lt;"));
    }
}

package dev.jetsink.server.testing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The samples of a Prometheus text exposition, as a daemon's {@code /metrics} answers it. */
public final class MetricsText {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*})?\\s+(\\S+)$");

    private MetricsText() {
    }

    /** Each sample's value by its series name with its label block as printed ({@code name{k="v"}}). */
    public static Map<String, Double> samples(String text) {
        Map<String, Double> out = new HashMap<>();
        for (String line : List.of(text.split("\n"))) {
            Matcher mt = SAMPLE.matcher(line.trim());
            if (!line.startsWith("#") && mt.matches()) {
                out.put(mt.group(1) + (mt.group(2) == null ? "" : mt.group(2)), Double.parseDouble(mt.group(3)));
            }
        }
        return out;
    }

    /** The sum of every sample whose series name with labels starts with {@code prefix}. */
    public static double sum(Map<String, Double> samples, String prefix) {
        return samples.entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).mapToDouble(Map.Entry::getValue).sum();
    }
}

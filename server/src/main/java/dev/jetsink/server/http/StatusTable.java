package dev.jetsink.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;

/**
 * The {@code GET /status} document ({@link StatusHandler}) as a table for a terminal, each line at
 * most 80 characters: what {@code jetsink status} and the demo print.
 */
public final class StatusTable {

    private static final String ROW = "%-19s %-10s %7s %7s %7s %7s %7s %7s%n";

    private StatusTable() {
    }

    /** The table of a {@code GET /status} answer, each line at most 80 characters. */
    public static String render(JsonNode status) {
        Instant now = Instant.parse(status.path("time").asText());
        StringBuilder b = new StringBuilder();
        b.append(String.format(ROW, "TARGET", "STATE", "SINCE", "QUEUE", "OLDEST", "IN/s", "OUT/s", "FAILED"));
        JsonNode targets = status.path("targets");
        if (targets.isEmpty()) {
            b.append("(no NATS target is running)\n");
        }
        for (JsonNode t : targets) {
            JsonNode rates = t.path("events_per_second");
            b.append(String.format(ROW, cut(t.path("target").asText(), 19), t.path("state").asText(),
                age(Duration.between(Instant.parse(t.path("since").asText()), now)),
                t.path("queue_length").asLong(),
                t.path("oldest_age_seconds").isNumber() ? age(Duration.ofMillis((long) (t.path("oldest_age_seconds").asDouble() * 1000))) : "-",
                String.format("%.1f", rates.path("in_10s").asDouble()), String.format("%.1f", rates.path("out_10s").asDouble()),
                t.path("failed_store_length").asLong()));
            JsonNode error = t.path("last_error");
            if (error.isObject()) {
                b.append(cut("  last error " + error.path("at").asText() + ": " + error.path("text").asText(), 80)).append('\n');
            }
        }
        return b.toString();
    }

    /** A compact age: 45s, 3m12s, 2h05m, 3d04h. */
    public static String age(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return (s / 60) + "m" + String.format("%02d", s % 60) + "s";
        }
        if (s < 86_400) {
            return (s / 3600) + "h" + String.format("%02d", (s % 3600) / 60) + "m";
        }
        return (s / 86_400) + "d" + String.format("%02d", (s % 86_400) / 3600) + "h";
    }

    private static String cut(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "~";
    }
}

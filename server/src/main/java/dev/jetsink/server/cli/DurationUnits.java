package dev.jetsink.server.cli;

import java.time.Duration;

/** The whole-number durations the CLI takes: a count and one of the units s, m, h or d. */
final class DurationUnits {

    private DurationUnits() {
    }

    /** {@code n} of {@code unit}: {@code "s"}, {@code "m"}, {@code "h"} or {@code "d"}. */
    static Duration of(long n, String unit) {
        return switch (unit) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            default -> throw new IllegalArgumentException("unit must be s, m, h or d: " + unit);
        };
    }
}

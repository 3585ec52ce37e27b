package dev.jetsink.server.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The limits a planned stream keeps its size within ({@code stream-plan --max-age/--max-bytes}).
 * Without either, a limits-retention stream keeps every message for ever. Ages are written
 * {@code 90s}, {@code 30m}, {@code 24h} or {@code 7d}; sizes as bytes or with a unit
 * {@code KB MB GB TB} (powers of 1000) or {@code KiB MiB GiB TiB} (powers of 1024).
 *
 * @param maxAge   how long a message is kept, when limited
 * @param maxBytes how many bytes the stream holds before discarding its oldest, when limited
 */
record StreamLimits(Optional<Duration> maxAge, Optional<Long> maxBytes) {

    static final StreamLimits NONE = new StreamLimits(Optional.empty(), Optional.empty());

    private static final Pattern AGE = Pattern.compile("(\\d+)([smhd])");
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([KMGT]i?B|B)?", Pattern.CASE_INSENSITIVE);

    /** True when neither limit is set: the stream grows for ever. */
    boolean unlimited() {
        return maxAge.isEmpty() && maxBytes.isEmpty();
    }

    /**
     * {@code text} as an age.
     *
     * @throws IllegalArgumentException naming {@code option} when it is not a whole number with a unit
     */
    static Duration parseAge(String option, String text) {
        Matcher m = AGE.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(option + " must be a whole number with a unit s, m, h or d (e.g. 7d, 24h): " + text);
        }
        long n = Long.parseLong(m.group(1));
        Duration d = DurationUnits.of(n, m.group(2));
        if (d.isZero()) {
            throw new IllegalArgumentException(option + " must be more than 0 (leave it out for no age limit)");
        }
        return d;
    }

    /**
     * {@code text} as a byte count.
     *
     * @throws IllegalArgumentException naming {@code option} when it is not a whole number with an optional unit
     */
    static long parseBytes(String option, String text) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(option + " must be a whole number of bytes, optionally with a unit"
                + " KB, MB, GB, TB, KiB, MiB, GiB or TiB (e.g. 10GiB): " + text);
        }
        String unit = m.group(2) == null ? "B" : m.group(2).toUpperCase(Locale.ROOT);
        int power = "BKMGT".indexOf(unit.charAt(0));
        long base = unit.contains("I") ? 1024 : 1000;
        try {
            long n = Long.parseLong(m.group(1));
            for (int i = 0; i < power; i++) {
                n = Math.multiplyExact(n, base);
            }
            if (n <= 0) {
                throw new IllegalArgumentException(option + " must be more than 0 (leave it out for no size limit)");
            }
            return n;
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException(option + " is too large: " + text);
        }
    }

    /** An age as the nats CLI and a person read it: whole days, hours or minutes when it is one. */
    static String formatAge(Duration d) {
        long s = d.toSeconds();
        if (s % 86_400 == 0) {
            return s / 86_400 + "d";
        }
        if (s % 3_600 == 0) {
            return s / 3_600 + "h";
        }
        return s % 60 == 0 ? s / 60 + "m" : s + "s";
    }

    /** An age as a Go duration ({@code 168h}, {@code 90s}), which every nats CLI version reads. */
    static String goDuration(Duration d) {
        long s = d.toSeconds();
        return s % 3_600 == 0 ? s / 3_600 + "h" : s + "s";
    }
}

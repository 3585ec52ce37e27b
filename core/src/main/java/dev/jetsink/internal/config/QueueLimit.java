package dev.jetsink.internal.config;

/**
 * The {@code queue_limit} rule (DESIGN.md "Configuration"): unparsable or 0 means the default,
 * never an error.
 */
public final class QueueLimit {
    /** The default and fallback bound on live queue entries. */
    public static final long DEFAULT = 100_000;

    private QueueLimit() {
    }

    /**
     * The limit {@code value} stands for. A negative number does not parse as the unsigned count
     * the origin system reads, so it falls back to the default like any other unparsable value.
     */
    public static long parse(String value) {
        try {
            long n = Long.parseLong(value.trim());
            return n > 0 ? n : DEFAULT;
        } catch (NumberFormatException e) {
            return DEFAULT;
        }
    }

    /** Whether {@code value} falls back to the default although it is not literally the default. */
    static boolean fallsBack(String value) {
        String v = value.trim();
        return parse(v) == DEFAULT && !v.equals(Long.toString(DEFAULT));
    }
}

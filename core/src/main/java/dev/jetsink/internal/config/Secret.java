package dev.jetsink.internal.config;

import java.util.Objects;
import java.util.Optional;

/**
 * A password, token or other credential. Its {@link #toString()} is always {@code ***}, so a
 * secret can sit in a record that is logged or printed without leaking; only {@link #reveal()}
 * returns the value, and only the code that hands it to the NATS client should call it.
 */
public final class Secret {
    private final String value;
    private final Optional<String> source;

    public Secret(String value) {
        this(value, Optional.empty());
    }

    private Secret(String value, Optional<String> source) {
        this.value = Objects.requireNonNull(value, "value");
        this.source = source;
    }

    /** A secret read from a file, {@code source} being the setting that named it ({@code X_FILE=/path}). */
    public static Secret fromFile(String value, String source) {
        return new Secret(value, Optional.of(source));
    }

    /**
     * How {@code check-config} shows the secret: {@code ***}, followed by the {@code X_FILE=/path}
     * setting it was read from when it came from a file.
     */
    public String describe() {
        return source.map(s -> "*** (" + s + ")").orElse("***");
    }

    /** The {@code X_FILE=<path or credential:NAME>} setting the secret was read from, when it came from a file. */
    public Optional<String> source() {
        return source;
    }

    /** The secret itself: pass it to the client library, never to a log or an exception. */
    public String reveal() {
        return value;
    }

    // Equal by value alone: a secret moved to a file is the same secret, and a reload that finds a
    // file's contents changed sees a changed target.
    @Override
    public boolean equals(Object o) {
        return o instanceof Secret s && s.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return "***";
    }
}

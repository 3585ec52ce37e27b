package dev.jetsink.internal.config;

import java.util.Objects;

/**
 * A password, token or other credential. Its {@link #toString()} is always {@code ***}, so a
 * secret can sit in a record that is logged or printed without leaking; only {@link #reveal()}
 * returns the value, and only the code that hands it to the NATS client should call it.
 */
public final class Secret {
    private final String value;

    public Secret(String value) {
        this.value = Objects.requireNonNull(value, "value");
    }

    /** The secret itself: pass it to the client library, never to a log or an exception. */
    public String reveal() {
        return value;
    }

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

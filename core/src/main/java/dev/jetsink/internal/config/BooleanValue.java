package dev.jetsink.internal.config;

import java.util.Locale;
import java.util.Optional;

/** The strict boolean: ten spellings accepted, anything else is a value error. */
public final class BooleanValue {
    private BooleanValue() {
    }

    /** {@code true}/{@code false} for an accepted spelling (case-insensitive), empty otherwise. */
    public static Optional<Boolean> parse(String value) {
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes", "1", "enabled":
                return Optional.of(true);
            case "off", "false", "no", "0", "disabled":
                return Optional.of(false);
            default:
                return Optional.empty();
        }
    }

    /** The error text for a value that is not a boolean. */
    static String invalid(String keyName, String value) {
        return "Invalid " + keyName + " boolean value: " + value
            + " (accepted values include on, off, true, false, yes, no, 1, 0)";
    }
}

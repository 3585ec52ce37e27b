package dev.jetsink;

import java.util.Locale;
import java.util.Optional;

/** Which order a target promises for the events it stores (the {@code order} setting). */
public enum OrderMode {
    /**
     * No order across retries: every entry is published as soon as the publish window has room,
     * and an entry that fails is retried while newer ones go ahead. The default, and the fastest.
     */
    NONE,
    /**
     * Per object: the events of one key (notify: bucket and object key; audit: bucket and
     * {@code api.object}) are stored in the order jetsink accepted them, across timeouts,
     * re-publishes, broker restarts, daemon crashes and the retry cycle. An entry of a key is
     * published only once every earlier entry of that key is settled; other keys keep their
     * pipelining.
     */
    KEY;

    /**
     * {@code none} or {@code key}.
     *
     * @return the lower-case name
     */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The mode a configuration value names, ignoring case and surrounding spaces.
     *
     * @param value e.g. {@code key}
     * @return the mode, or empty for anything else
     */
    public static Optional<OrderMode> parse(String value) {
        for (OrderMode m : values()) {
            if (m.label().equalsIgnoreCase(value.trim())) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}

package dev.jetsink;

import java.util.Locale;
import java.util.Optional;

/** How a target's {@code Nats-Msg-Id}s are made (the {@code msg_id} setting). */
public enum MsgIdMode {
    /**
     * Derived from the event's content, the target's kind and id: a sender's re-send of the same
     * record gets the same id, and the stream's duplicate window stores it once. The default.
     */
    CONTENT,
    /**
     * A fresh UUIDv7 per accepted event: for a producer whose identical records are distinct
     * events. Re-sends are stored again.
     */
    RANDOM;

    /**
     * {@code content} or {@code random}.
     *
     * @return the lower-case name
     */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The mode a configuration value names, ignoring case and surrounding spaces.
     *
     * @param value e.g. {@code content}
     * @return the mode, or empty for anything else
     */
    public static Optional<MsgIdMode> parse(String value) {
        for (MsgIdMode m : values()) {
            if (m.label().equalsIgnoreCase(value.trim())) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}

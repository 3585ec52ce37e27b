package dev.jetsink.internal.event;

/**
 * What a {@code Nats-Msg-Id} may be: 1 to {@value #MAX_BYTES} printable ASCII characters without
 * spaces ({@code !} to {@code ~}). jetsink's own ids (UUIDs) always are; an embedder's id is checked
 * here before it is queued, so a bad one is refused at the call, not at the publish.
 */
public final class MsgIds {
    /** The longest msg id a queue record holds. */
    public static final int MAX_BYTES = 128;

    private MsgIds() {
    }

    /**
     * Returns {@code id} when it is a valid msg id.
     *
     * @throws IllegalArgumentException naming what is wrong (the id itself is quoted only in part)
     */
    public static String check(String id) {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("msg id must not be empty");
        }
        if (id.length() > MAX_BYTES) {
            throw new IllegalArgumentException("msg id is " + id.length() + " characters long; at most " + MAX_BYTES
                + " are allowed");
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c < '!' || c > '~') {
                throw new IllegalArgumentException("msg id may hold printable ASCII characters without spaces only;"
                    + " character " + (i + 1) + " is U+" + String.format("%04X", (int) c));
            }
        }
        return id;
    }
}

package dev.jetsink.lifecycle;

/** Why a verdict went back to UNSET (DESIGN.md "Stream validation and verdict"). */
public enum ResetReason {
    /** A new connection was made. */
    NEW_CONNECTION("new connection"),
    /** The client reconnected, possibly to another server. */
    RECONNECTED("reconnected"),
    /** The target's TLS files changed and the connection was rebuilt. */
    TLS_ROTATED("TLS material rotated"),
    /** A publish was captured or acknowledged by another stream. */
    UNEXPECTED_STREAM("unexpected stream"),
    /** The configured stream was not found. */
    STREAM_NOT_FOUND("stream not found"),
    /** A publish found no responders. */
    NO_RESPONDERS("no responders"),
    /** The stream was sealed. */
    STREAM_SEALED("stream sealed");

    private final String label;

    ResetReason(String label) {
        this.label = label;
    }

    /**
     * The words used in logs.
     *
     * @return e.g. {@code "new connection"}
     */
    public String label() {
        return label;
    }
}

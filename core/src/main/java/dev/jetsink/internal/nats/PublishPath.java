package dev.jetsink.internal.nats;

/**
 * Which publish path a target uses (DESIGN.md "Delivery"). Some outcomes classify differently per
 * path: an event over the server's max payload is permanent on the JetStream path but an
 * entry-specific transient on the Core path.
 */
enum PublishPath {
    /** NATS Core publish + flush; the default. */
    CORE("core"),
    /** JetStream publish awaiting a real PubAck. */
    JETSTREAM("jetstream");

    private final String label;

    PublishPath(String label) {
        this.label = label;
    }

    /** {@code core} or {@code jetstream}, as printed in the startup log line. */
    public String label() {
        return label;
    }
}

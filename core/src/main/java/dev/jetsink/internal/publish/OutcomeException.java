package dev.jetsink.internal.publish;

import dev.jetsink.internal.nats.Classified;

/**
 * Carries a failure classified by a publisher itself (a PubAck from an unexpected stream, a publish
 * failed by a lost connection).
 */
public final class OutcomeException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient Classified classified;

    OutcomeException(Classified classified) {
        super(classified.outcome().detail(), null, false, false);
        this.classified = classified;
    }

    /** The failure as the publisher classified it. */
    public Classified classified() {
        return classified;
    }
}

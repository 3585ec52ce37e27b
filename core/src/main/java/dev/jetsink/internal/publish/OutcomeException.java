package dev.jetsink.internal.publish;

import dev.jetsink.lifecycle.Outcome;

/** Carries an outcome decided by a publisher itself (a PubAck from an unexpected stream). */
public final class OutcomeException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient Outcome outcome;

    OutcomeException(Outcome outcome) {
        super(outcome.detail(), null, false, false);
        this.outcome = outcome;
    }

    public Outcome outcome() {
        return outcome;
    }
}

package dev.jetsink.internal.target;

import dev.jetsink.lifecycle.Outcome;

/** Carries an outcome decided by a publisher itself (a PubAck from an unexpected stream). */
final class OutcomeException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient Outcome outcome;

    OutcomeException(Outcome outcome) {
        super(outcome.detail(), null, false, false);
        this.outcome = outcome;
    }

    Outcome outcome() {
        return outcome;
    }
}

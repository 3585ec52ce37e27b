package dev.jetsink.target;

/**
 * Receives a target's lifecycle events (§6). Logs and metrics subscribe through it, and tests await
 * events ({@link LifecycleEvents}) instead of sleeping. Every method defaults to doing nothing, so
 * a listener implements only what it needs. Methods are called on delivery threads: they must be
 * quick and must not throw.
 */
public interface LifecycleListener {

    /** A listener that ignores everything. */
    LifecycleListener NONE = new LifecycleListener() {
    };

    /**
     * One listener handing every event to each of {@code listeners} in order, e.g. metrics plus a
     * test's recorder; a listener that throws does not keep the event from the others.
     */
    static LifecycleListener fanOut(LifecycleListener... listeners) {
        return new FanOutListener(java.util.List.of(listeners));
    }

    default void verdictChanged(LifecycleEvent.VerdictChanged event) {
    }

    default void entryResolved(LifecycleEvent.EntryResolved event) {
    }

    default void movedToFailedStore(LifecycleEvent.MovedToFailedStore event) {
    }

    default void cycleExhausted(LifecycleEvent.CycleExhausted event) {
    }

    default void probeModeEntered(LifecycleEvent.ProbeModeEntered event) {
    }

    default void probeModeLeft(LifecycleEvent.ProbeModeLeft event) {
    }

    default void connectionChanged(LifecycleEvent.ConnectionChanged event) {
    }

    default void attemptFailed(LifecycleEvent.AttemptFailed event) {
    }

    default void streamValidationFailed(LifecycleEvent.StreamValidationFailed event) {
    }
}

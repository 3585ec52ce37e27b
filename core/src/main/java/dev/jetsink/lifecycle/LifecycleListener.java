package dev.jetsink.lifecycle;

/**
 * Receives a target's lifecycle events. Logs and metrics subscribe through it, and tests await
 * events instead of sleeping. Every method defaults to doing nothing, so
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
     *
     * @param listeners the listeners, called in this order
     * @return the combined listener
     */
    static LifecycleListener fanOut(LifecycleListener... listeners) {
        return new FanOutListener(java.util.List.of(listeners));
    }

    /**
     * The stream verdict changed.
     *
     * @param event the event
     */
    default void verdictChanged(LifecycleEvent.VerdictChanged event) {
    }

    /**
     * An entry was delivered and left the queue.
     *
     * @param event the event
     */
    default void entryResolved(LifecycleEvent.EntryResolved event) {
    }

    /**
     * An entry was rejected for good and written to the failed-events store.
     *
     * @param event the event
     */
    default void movedToFailedStore(LifecycleEvent.MovedToFailedStore event) {
    }

    /**
     * An entry used up a retry cycle and stays queued.
     *
     * @param event the event
     */
    default void cycleExhausted(LifecycleEvent.CycleExhausted event) {
    }

    /**
     * The target entered probe mode.
     *
     * @param event the event
     */
    default void probeModeEntered(LifecycleEvent.ProbeModeEntered event) {
    }

    /**
     * The target left probe mode.
     *
     * @param event the event
     */
    default void probeModeLeft(LifecycleEvent.ProbeModeLeft event) {
    }

    /**
     * The target's connection changed.
     *
     * @param event the event
     */
    default void connectionChanged(LifecycleEvent.ConnectionChanged event) {
    }

    /**
     * One publish attempt failed.
     *
     * @param event the event
     */
    default void attemptFailed(LifecycleEvent.AttemptFailed event) {
    }

    /**
     * A live stream validation failed.
     *
     * @param event the event
     */
    default void streamValidationFailed(LifecycleEvent.StreamValidationFailed event) {
    }
}

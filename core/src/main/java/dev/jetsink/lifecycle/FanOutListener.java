package dev.jetsink.lifecycle;

import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Hands every lifecycle event to several listeners; one failing listener does not starve the rest. */
final class FanOutListener implements LifecycleListener {

    private static final Logger log = LoggerFactory.getLogger(FanOutListener.class);
    private final List<LifecycleListener> listeners;

    FanOutListener(List<LifecycleListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    private void each(Consumer<LifecycleListener> call) {
        for (LifecycleListener l : listeners) {
            try {
                call.accept(l);
            } catch (RuntimeException e) {
                log.warn("lifecycle listener failed listener={} error={}", l.getClass().getSimpleName(), e.toString());
            }
        }
    }

    @Override
    public void verdictChanged(LifecycleEvent.VerdictChanged e) {
        each(l -> l.verdictChanged(e));
    }

    @Override
    public void entryResolved(LifecycleEvent.EntryResolved e) {
        each(l -> l.entryResolved(e));
    }

    @Override
    public void movedToFailedStore(LifecycleEvent.MovedToFailedStore e) {
        each(l -> l.movedToFailedStore(e));
    }

    @Override
    public void cycleExhausted(LifecycleEvent.CycleExhausted e) {
        each(l -> l.cycleExhausted(e));
    }

    @Override
    public void probeModeEntered(LifecycleEvent.ProbeModeEntered e) {
        each(l -> l.probeModeEntered(e));
    }

    @Override
    public void probeModeLeft(LifecycleEvent.ProbeModeLeft e) {
        each(l -> l.probeModeLeft(e));
    }

    @Override
    public void connectionChanged(LifecycleEvent.ConnectionChanged e) {
        each(l -> l.connectionChanged(e));
    }

    @Override
    public void attemptFailed(LifecycleEvent.AttemptFailed e) {
        each(l -> l.attemptFailed(e));
    }

    @Override
    public void streamValidationFailed(LifecycleEvent.StreamValidationFailed e) {
        each(l -> l.streamValidationFailed(e));
    }
}

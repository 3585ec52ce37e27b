package dev.jetsink.internal.targets;

import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.LifecycleListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A {@link LifecycleListener} that records every event, for tests: a test awaits the event it
 * expects (with a timeout) rather than sleeping. Kept in the main code so tests of every module can
 * use it.
 */
public final class LifecycleEvents implements LifecycleListener {

    private final List<LifecycleEvent> events = new ArrayList<>();

    /** Every event so far, in arrival order. */
    public synchronized List<LifecycleEvent> all() {
        return List.copyOf(events);
    }

    /** The recorded events of one type, in arrival order. */
    public synchronized <T extends LifecycleEvent> List<T> all(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /**
     * Waits for an event of {@code type} matching {@code condition}, including one recorded before
     * the call, and returns the first such event.
     *
     * @throws AssertionError if none arrives within {@code timeout}, listing what did arrive
     */
    public <T extends LifecycleEvent> T await(Class<T> type, Predicate<? super T> condition, Duration timeout)
            throws InterruptedException {
        return awaitCount(type, condition, 1, timeout).get(0);
    }

    /**
     * Waits until {@code count} events of {@code type} match {@code condition} and returns them.
     *
     * @throws AssertionError if fewer arrive within {@code timeout}
     */
    public synchronized <T extends LifecycleEvent> List<T> awaitCount(Class<T> type, Predicate<? super T> condition,
                                                                      int count, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<T> matching = all(type).stream().filter(condition).map(type::cast).toList();
            if (matching.size() >= count) {
                return matching.subList(0, count);
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("expected " + count + " " + type.getSimpleName() + " event(s) within "
                        + timeout + ", got " + matching.size() + "; all events: " + events);
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    private synchronized void record(LifecycleEvent event) {
        events.add(event);
        notifyAll();
    }

    @Override
    public void verdictChanged(LifecycleEvent.VerdictChanged event) {
        record(event);
    }

    @Override
    public void entryResolved(LifecycleEvent.EntryResolved event) {
        record(event);
    }

    @Override
    public void movedToFailedStore(LifecycleEvent.MovedToFailedStore event) {
        record(event);
    }

    @Override
    public void cycleExhausted(LifecycleEvent.CycleExhausted event) {
        record(event);
    }

    @Override
    public void probeModeEntered(LifecycleEvent.ProbeModeEntered event) {
        record(event);
    }

    @Override
    public void probeModeLeft(LifecycleEvent.ProbeModeLeft event) {
        record(event);
    }

    @Override
    public void connectionChanged(LifecycleEvent.ConnectionChanged event) {
        record(event);
    }

    @Override
    public void attemptFailed(LifecycleEvent.AttemptFailed event) {
        record(event);
    }

    @Override
    public void streamValidationFailed(LifecycleEvent.StreamValidationFailed event) {
        record(event);
    }
}

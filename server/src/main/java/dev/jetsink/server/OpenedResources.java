package dev.jetsink.server;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What {@link Daemon#start} has opened so far, in order: each resource is registered the moment it
 * exists, and a start that fails after it closes them in reverse, so a failed start leaves no
 * queue locked, no port bound and no thread running.
 */
final class OpenedResources {

    /** Told the name of each resource once it is registered; a test makes it throw to fail the start there. */
    interface StepListener {
        StepListener NONE = step -> { };

        void opened(String step);
    }

    private record Opened(String name, AutoCloseable resource) { }

    private final Deque<Opened> opened = new ArrayDeque<>();
    private final StepListener listener;

    OpenedResources(StepListener listener) {
        this.listener = listener;
    }

    /** Registers a resource just opened; {@code close} releases it. */
    void add(String name, AutoCloseable close) {
        opened.push(new Opened(name, close));
        listener.opened(name);
    }

    /** Marks a step of the start that opens nothing by itself. */
    void reached(String name) {
        listener.opened(name);
    }

    /**
     * Closes everything registered, newest first, after {@code failure} ended the start. Each
     * close runs even when an earlier one throws; their failures are suppressed into
     * {@code failure}, which the caller rethrows.
     */
    void closeAfter(Throwable failure) {
        while (!opened.isEmpty()) {
            Opened o = opened.pop();
            try {
                o.resource().close();
            } catch (Throwable e) {
                failure.addSuppressed(new IllegalStateException("closing " + o.name() + " after a failed start", e));
            }
        }
    }

    /** The start succeeded: the daemon owns everything now and closes it at shutdown. */
    void handedOver() {
        opened.clear();
    }
}

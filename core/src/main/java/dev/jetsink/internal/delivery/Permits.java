package dev.jetsink.internal.delivery;

import java.util.Optional;

/**
 * The stream-concurrency permits one dispatcher holds (DESIGN.md "Delivery"). A permit covers one
 * fill of the window: up to {@code publish_window} publishes opened under it, released when all of
 * them have completed. A dispatcher holds at most two at once — one filling, one draining — so a
 * steady backlog keeps its pipeline full yet queues behind other targets for every new window. Used
 * by the dispatcher thread only.
 */
final class Permits {

    /** Publishes opened under one permit. */
    static final class Group {
        private int opened;
        private int outstanding;
        private boolean released;
    }

    private static final int MAX_HELD = 2;
    /** How long a dispatcher that holds no permit waits in the semaphore's fair queue per try. */
    private static final long QUEUE_WAIT_MILLIS = 100;

    private final StreamConcurrency concurrency;
    private final int window;
    private Group current;
    private int held;

    Permits(StreamConcurrency concurrency, int window) {
        this.concurrency = concurrency;
        this.window = window;
    }

    /**
     * A group with room for more publishes, taking a new permit when the current one is used up;
     * empty when no permit can be had now.
     */
    Optional<Group> open() throws InterruptedException {
        if (current != null && current.opened < window) {
            return Optional.of(current);
        }
        // Holding none, wait in the fair queue: a permit another target releases then goes to the
        // longest waiter. An instant try would lose every hand-over to the releasing dispatcher,
        // which its own completions wake first (no starvation). Holding one, only try: our
        // own completions will signal us, and blocking here would delay releasing it.
        long wait = held == 0 ? QUEUE_WAIT_MILLIS : 0;
        if (held >= MAX_HELD || !concurrency.tryAcquire(wait)) {
            return Optional.empty();
        }
        held++;
        current = new Group();
        return Optional.of(current);
    }

    /** True when {@link #open()} came back empty for want of a free permit (not our own limit). */
    boolean blockedByOthers() {
        return held < MAX_HELD;
    }

    /** True when this dispatcher holds no permit (so {@link #open()} already waited in the queue). */
    boolean holdsNone() {
        return held == 0;
    }

    int room(Group g) {
        return window - g.opened;
    }

    void opened(Group g) {
        g.opened++;
        g.outstanding++;
    }

    void completed(Group g) {
        g.outstanding--;
        if (g.outstanding == 0) {
            release(g);
        }
    }

    /** The fill opened nothing (its preconditions failed): give the permit back if it is idle. */
    void unused(Group g) {
        if (g.outstanding == 0) {
            release(g);
        }
    }

    private void release(Group g) {
        if (g.released) {
            return;
        }
        g.released = true;
        held--;
        concurrency.release();
        if (current == g) {
            current = null;
        }
    }
}

package dev.jetsink.internal.queue;

/** Waits that an interrupt does not cut short: the queue's close must finish what it started. */
final class Uninterruptibly {

    /** A wait that may be interrupted. */
    @FunctionalInterface
    interface Wait {
        boolean await() throws InterruptedException;
    }

    private Uninterruptibly() {
    }

    /** Runs {@code w} to completion; returns whether an interrupt arrived meanwhile. */
    static boolean await(Wait w) {
        boolean interrupted = false;
        while (true) {
            try {
                w.await();
                return interrupted;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
    }
}

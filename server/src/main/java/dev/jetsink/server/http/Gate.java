package dev.jetsink.server.http;

import java.time.Duration;

/**
 * The intake gate of the HTTP server. SIGTERM closes it: requests arriving after that are turned
 * away with 503, and shutdown waits for the requests already inside (their events are being made
 * durable) before the targets close (DESIGN.md "Shutdown"). Before it closes, a daemon whose
 * socket the service manager holds hands over: the gate stays open and every answer tells the
 * sender to reconnect ({@link #handingOver}).
 */
public final class Gate {
    private boolean closed;
    private volatile boolean handingOver;
    private int inside;

    /** Lets one request in; false once the gate is closed. Pair a true answer with {@link #leave}. */
    synchronized boolean enter() {
        if (closed) {
            return false;
        }
        inside++;
        return true;
    }

    synchronized void leave() {
        inside--;
        if (inside == 0) {
            notifyAll();
        }
    }

    /** Closes the gate and waits up to {@code atMost} for the requests inside; true when none is left. */
    synchronized boolean closeAndDrain(Duration atMost) throws InterruptedException {
        closed = true;
        long deadline = System.nanoTime() + atMost.toNanos();
        while (inside > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    /** From now on every answer carries {@code Connection: close}; requests are still let in. */
    void handOver() {
        handingOver = true;
    }

    /** True once a hand-over or a close started: the daemon is on its way out. */
    public boolean handingOver() {
        return handingOver;
    }

    public synchronized int inside() {
        return inside;
    }

    public synchronized boolean isClosed() {
        return closed;
    }
}

package dev.jetsink.server.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SelectableChannel;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A connector that can stop accepting without closing its listening socket, so a socket the
 * service manager holds across restarts keeps its backlog for the next process.
 *
 * <p>Closing is not an option for such a socket: the JVM adopts it as its inherited channel
 * ({@link System#inheritedChannel()}), and closing that channel points descriptors 0, 1 and 2 at
 * {@code /dev/null}, which would silence the rest of the shutdown's log. So {@link #handOver}
 * parks the single acceptor thread instead: the flag Jetty's acceptor loop checks before each
 * {@code accept} goes false, an accept already waiting in the kernel is woken by a connection of
 * our own, and the connections this process accepted are counted until the last one closes.
 */
final class HandOverConnector extends ServerConnector {

    private final boolean keepChannelOpen;
    private final AtomicInteger registering = new AtomicInteger();
    private final Object lock = new Object();
    private volatile boolean handingOver;
    private boolean inAccept;

    HandOverConnector(Server server, boolean keepChannelOpen, ConnectionFactory... factories) {
        super(server, 1, 1, factories);
        this.keepChannelOpen = keepChannelOpen;
        getSelectorManager().addEventListener(new SelectorManager.AcceptListener() {
            @Override
            public void onAccepting(SelectableChannel channel) {
                registering.incrementAndGet();
            }

            @Override
            public void onAcceptFailed(SelectableChannel channel, Throwable cause) {
                registering.decrementAndGet();
            }

            @Override
            public void onAccepted(SelectableChannel channel) {
                registering.decrementAndGet();
            }
        });
    }

    @Override
    public void accept(int acceptorID) throws IOException {
        synchronized (lock) {
            if (handingOver) {
                return; // the acceptor loop sees accepting off and parks
            }
            inAccept = true;
        }
        try {
            super.accept(acceptorID);
        } finally {
            synchronized (lock) {
                inAccept = false;
                lock.notifyAll();
            }
        }
    }

    /** Once handing over, nothing turns accepting back on (the connection limit would, as connections close). */
    @Override
    public void setAccepting(boolean accepting) {
        super.setAccepting(accepting && !handingOver);
    }

    /** Keeps an inherited listening socket open: the process exits next, and the service manager keeps its copy. */
    @Override
    public void close() {
        if (!keepChannelOpen) {
            super.close();
        }
    }

    /**
     * Stops accepting, shortens the idle timeout of open connections to {@code idle}, and waits up
     * to {@code atMost} until no connection accepted by this process is left. True when none is.
     */
    boolean handOver(Duration idle, Duration atMost) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        boolean wake;
        synchronized (lock) {
            handingOver = true;
            wake = inAccept;
        }
        super.setAccepting(false);
        setIdleTimeout(idle.toMillis());
        getConnectedEndPoints().forEach(e -> e.setIdleTimeout(idle.toMillis()));
        if (wake) {
            wakeAcceptor();
        }
        synchronized (lock) {
            while (inAccept) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                lock.wait(Math.max(1, left / 1_000_000));
            }
        }
        // Connections close as their senders take their last answer; a bounded poll is enough here.
        while (registering.get() > 0 || !getConnectedEndPoints().isEmpty()) {
            if (System.nanoTime() >= deadline) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    /** Connects to our own listener so the acceptor's blocked {@code accept} returns; the connection closes at once. */
    private void wakeAcceptor() {
        Object transport = getTransport();
        if (!(transport instanceof ServerSocketChannel channel)) {
            return;
        }
        try {
            InetSocketAddress bound = (InetSocketAddress) channel.getLocalAddress();
            InetAddress host = bound.getAddress().isAnyLocalAddress()
                ? InetAddress.getLoopbackAddress() : bound.getAddress();
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, bound.getPort()), 1_000);
            }
        } catch (IOException | RuntimeException e) {
            // The accept returns with the next sender's connection instead, or the wait times out.
        }
    }
}

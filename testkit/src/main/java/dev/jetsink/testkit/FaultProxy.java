package dev.jetsink.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on 127.0.0.1 that puts network faults between a client and a server:
 * {@link #pass()}, {@link #delay(Duration)}, {@link #blackhole()} (a half-open link: sockets stay
 * up, nothing moves), {@link #reset()} (every current connection gets a TCP RST) and
 * {@link #refuse()} (a server that is gone). Modes apply to current and new connections alike.
 *
 * <pre>{@code
 * try (FaultProxy proxy = FaultProxy.start("127.0.0.1", nats.port())) {
 *     Connection c = Nats.connect(proxy.url());
 *     proxy.blackhole();
 * }
 * }</pre>
 */
public final class FaultProxy implements AutoCloseable {

    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final Set<ProxyLink> links = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private final Object modeLock = new Object();
    private ProxyMode mode = ProxyMode.PASS;
    private volatile boolean closed;

    private FaultProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    /** Starts a proxy in pass mode on an ephemeral loopback port, forwarding to host:port. */
    public static FaultProxy start(String host, int port) {
        try {
            FaultProxy proxy = new FaultProxy(new InetSocketAddress(host, port));
            ProxyLink.daemon("fault-proxy-accept-" + proxy.port(), proxy::acceptLoop).start();
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a fault proxy listener", e);
        }
    }

    /** Starts a proxy in front of a running {@link NatsServer}. */
    public static FaultProxy in(NatsServer server) {
        return start("127.0.0.1", server.port());
    }

    /** The proxy's own port. */
    public int port() {
        return listener.getLocalPort();
    }

    /** {@code nats://127.0.0.1:<proxy port>}. */
    public String url() {
        return "nats://127.0.0.1:" + port();
    }

    /** Forwards everything at once (the default). */
    public void pass() {
        setMode(ProxyMode.PASS);
    }

    /** Holds every forwarded chunk, in both directions, for {@code delay} before passing it on. */
    public void delay(Duration delay) {
        setMode(ProxyMode.delay(delay));
    }

    /** Keeps connections open but forwards nothing either way until the mode changes. */
    public void blackhole() {
        setMode(ProxyMode.BLACKHOLE);
    }

    /**
     * Drops every current connection with a TCP RST to both sides; new connections are accepted
     * and treated in the current mode.
     */
    public void reset() {
        for (ProxyLink link : List.copyOf(links)) {
            link.reset();
        }
    }

    /** Resets every current connection and resets each new one at once, until the mode changes. */
    public void refuse() {
        setMode(ProxyMode.REFUSE);
        reset();
    }

    /** Connections accepted so far, for asserting that a client reconnected. */
    public int acceptedConnections() {
        return accepted.get();
    }

    /** Connections currently open through the proxy. */
    public int openConnections() {
        return links.size();
    }

    /** Stops accepting and resets every connection. */
    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            // The listener is going away either way.
        }
        reset();
        synchronized (modeLock) {
            modeLock.notifyAll();
        }
    }

    @Override
    public String toString() {
        return "FaultProxy[" + url() + " -> " + target + "]";
    }

    /**
     * Called by a pump before it forwards a chunk: waits while traffic is held, sleeps in delay
     * mode. Returns false when the link or the proxy closed meanwhile.
     */
    boolean awaitForwarding(ProxyLink link) {
        ProxyMode current;
        synchronized (modeLock) {
            while (!mode.forwards() && !closed && !link.isClosed()) {
                try {
                    modeLock.wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            current = mode;
        }
        if (current.kind() == ProxyMode.Kind.DELAY) {
            try {
                Thread.sleep(current.delay().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return !closed && !link.isClosed();
    }

    private void setMode(ProxyMode next) {
        synchronized (modeLock) {
            mode = next;
            modeLock.notifyAll();
        }
    }

    private ProxyMode mode() {
        synchronized (modeLock) {
            return mode;
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // listener closed
            }
            accepted.incrementAndGet();
            handle(client);
        }
    }

    private void handle(Socket client) {
        if (mode().kind() == ProxyMode.Kind.REFUSE) {
            ProxyLink.resetSocket(client);
            return;
        }
        Socket upstream = new Socket();
        try {
            client.setTcpNoDelay(true);
            upstream.connect(target, 2000);
            upstream.setTcpNoDelay(true);
        } catch (IOException e) {
            // Target down: the client sees what it would see without the proxy, a reset.
            ProxyLink.resetSocket(client);
            ProxyLink.resetSocket(upstream);
            return;
        }
        ProxyLink link = new ProxyLink(client, upstream, this, links::remove);
        links.add(link);
        link.start("fault-proxy-" + port() + "-" + accepted.get());
    }
}

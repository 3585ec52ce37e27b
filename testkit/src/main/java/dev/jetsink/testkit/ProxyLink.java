package dev.jetsink.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One client connection through a {@link FaultProxy}: the client socket, the socket to the target
 * and one pump thread per direction.
 */
final class ProxyLink {

    private static final int CHUNK = 16 * 1024;

    private final Socket client;
    private final Socket upstream;
    private final FaultProxy proxy;
    private final Consumer<ProxyLink> onClose;
    private final AtomicInteger finishedDirections = new AtomicInteger();
    private volatile boolean closed;

    ProxyLink(Socket client, Socket upstream, FaultProxy proxy, Consumer<ProxyLink> onClose) {
        this.client = client;
        this.upstream = upstream;
        this.proxy = proxy;
        this.onClose = onClose;
    }

    void start(String name) {
        daemon(name + "-up", () -> pump(client, upstream)).start();
        daemon(name + "-down", () -> pump(upstream, client)).start();
    }

    boolean isClosed() {
        return closed;
    }

    /** Closes both sockets with SO_LINGER 0, so each peer gets a TCP RST rather than a FIN. */
    void reset() {
        abort(client);
        abort(upstream);
        close();
    }

    private void pump(Socket from, Socket to) {
        byte[] buf = new byte[CHUNK];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buf)) >= 0) {
                if (!proxy.awaitForwarding(this)) {
                    return;
                }
                out.write(buf, 0, n);
                out.flush();
            }
            // Pass the peer's orderly close on, keeping the other direction open until it ends too.
            to.shutdownOutput();
            if (finishedDirections.incrementAndGet() == 2) {
                close();
            }
        } catch (IOException e) {
            // A reset or a peer closing mid-write ends the link; nothing to report to the test.
            close();
        }
    }

    private synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeQuietly(client);
        closeQuietly(upstream);
        onClose.accept(this);
    }

    /** Closes a socket so that its peer gets a TCP RST. */
    static void resetSocket(Socket s) {
        abort(s);
        closeQuietly(s);
    }

    private static void abort(Socket s) {
        try {
            s.setSoLinger(true, 0);
        } catch (IOException e) {
            // Already closed: it cannot be reset any more, which is what reset() wants anyway.
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // Closing a socket that failed is best effort.
        }
    }

    static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }
}

package dev.jetsink.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Slow clients: connections that send half a request header and then dribble one byte of it every
 * {@link #DRIBBLE_PERIOD}, never completing the request — what a flaky or hostile peer does to a
 * server that parks a thread on each unfinished request. One thread serves them all.
 */
final class StalledConnections implements AutoCloseable {

    static final Duration DRIBBLE_PERIOD = Duration.ofSeconds(2);
    private static final byte[] HALF_HEADER = ("POST /notify HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Content-Type: application/json\r\nX-Dribble: ").getBytes(StandardCharsets.US_ASCII);

    private final List<Socket> sockets;
    private final Thread dribbler;
    private final AtomicInteger broken = new AtomicInteger();

    private StalledConnections(List<Socket> sockets) {
        this.sockets = sockets;
        this.dribbler = new Thread(this::dribble, "stalled-dribbler");
        dribbler.setDaemon(true);
        dribbler.start();
    }

    /** Opens up to {@code count} connections (each connect waits at most 2 s) and stalls them. */
    static StalledConnections open(String host, int port, int count) {
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress(host, port), 2000);
                s.getOutputStream().write(HALF_HEADER);
                s.getOutputStream().flush();
                sockets.add(s);
            } catch (IOException e) {
                closeQuietly(s);
            }
        }
        return new StalledConnections(sockets);
    }

    /** Connections that were opened and sent their half header. */
    int opened() {
        return sockets.size();
    }

    /** Connections the server has closed or reset so far (a write failed). */
    int broken() {
        return broken.get();
    }

    private void dribble() {
        boolean[] dead = new boolean[sockets.size()];
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(DRIBBLE_PERIOD.toMillis());
                for (int i = 0; i < sockets.size(); i++) {
                    if (dead[i]) {
                        continue;
                    }
                    try {
                        OutputStream out = sockets.get(i).getOutputStream();
                        out.write('a');
                        out.flush();
                    } catch (IOException e) {
                        dead[i] = true;
                        broken.incrementAndGet();
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the dribbler (up to 5 s) and closes the sockets; an interrupt is kept in the thread's flag. */
    @Override
    public void close() {
        dribbler.interrupt();
        try {
            dribbler.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sockets.forEach(StalledConnections::closeQuietly);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // the server may already have dropped it
        }
    }
}

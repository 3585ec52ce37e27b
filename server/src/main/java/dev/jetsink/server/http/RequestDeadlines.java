package dev.jetsink.server.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * {@code JETSINK_HTTP_REQUEST_TIMEOUT_SECS}: a request's headers and body must all arrive within
 * the timeout of its first byte. Jetty's idle timeout closes a silent connection, but a client that
 * sends one byte a second is never idle; this closes it. A request still in its headers gets a raw
 * {@code 408} before the close; one whose body is being read is answered 408 by its handler
 * ({@link #whileReadingBody}). Time spent after the body arrived (parsing, fsync) does not count.
 *
 * <p>Each HTTP connection is checked once per tick (a second at most): a request starts when the
 * connection's received byte count grows after its previous answer, and ends with the next answer.
 */
public final class RequestDeadlines extends AbstractLifeCycle implements Connection.Listener {

    private static final String BODY_408 = "{\"error\":\"request headers not received within the timeout\"}";
    private static final byte[] TIMEOUT_408 = ("HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\n"
        + "Connection: close\r\nContent-Length: " + BODY_408.length() + "\r\n\r\n" + BODY_408)
        .getBytes(StandardCharsets.US_ASCII);

    private final long timeoutNanos;
    private final long tickMillis;
    private final Scheduler scheduler;
    private final Map<Connection, Track> open = new ConcurrentHashMap<>();
    private volatile Scheduler.Task next;

    RequestDeadlines(Duration timeout, Scheduler scheduler) {
        this.timeoutNanos = timeout.toNanos();
        this.tickMillis = Math.max(100, Math.min(1000, timeout.toMillis() / 10));
        this.scheduler = scheduler;
    }

    @Override
    protected void doStart() {
        schedule();
    }

    @Override
    protected void doStop() {
        Scheduler.Task t = next;
        if (t != null) {
            t.cancel();
        }
        open.clear();
    }

    @Override
    public void onOpened(Connection connection) {
        // TLS wraps the HTTP connection in an SslConnection; the inner one counts request bytes.
        if (!(connection instanceof SslConnection)) {
            open.put(connection, new Track());
        }
    }

    @Override
    public void onClosed(Connection connection) {
        open.remove(connection);
    }

    /** The current request on {@code connection} has its whole body (or has none): its clock stops. */
    void received(Connection connection) {
        Track t = open.get(connection);
        if (t != null) {
            t.received();
        }
    }

    /**
     * While the current request's body is being read, {@code answer} is what happens at its
     * deadline (a 408 from the handler) instead of a raw 408; {@link #received} ends it.
     */
    void whileReadingBody(Connection connection, Runnable answer) {
        Track t = open.get(connection);
        if (t != null) {
            t.onExpiry(answer);
        }
    }

    private void schedule() {
        if (isRunning() || isStarting()) {
            next = scheduler.schedule(this::tick, tickMillis, TimeUnit.MILLISECONDS);
        }
    }

    private void tick() {
        try {
            long now = System.nanoTime();
            open.forEach((c, t) -> t.check(c, now).ifPresent(expiry -> expire(c, expiry.handlerAnswer())));
        } finally {
            schedule();
        }
    }

    private static void expire(Connection c, Optional<Runnable> handlerAnswer) {
        if (handlerAnswer.isPresent()) {
            handlerAnswer.get().run();
            return;
        }
        EndPoint endPoint = c.getEndPoint();
        endPoint.write(Callback.from(endPoint::close, x -> endPoint.close()), ByteBuffer.wrap(TIMEOUT_408));
    }

    /** A request clock ran out: the handler's answer to send, or empty for a raw 408. */
    private record Expiry(Optional<Runnable> handlerAnswer) {
    }

    /** One connection's request clock. */
    private final class Track {
        private long baseBytes;
        private long answered;
        private long since = -1;
        private boolean received;
        private Runnable onExpiry;
        private boolean expired;

        synchronized void received() {
            received = true;
            onExpiry = null;
        }

        synchronized void onExpiry(Runnable answer) {
            onExpiry = answer;
        }

        /** Empty while in time; else the expiry. */
        synchronized Optional<Expiry> check(Connection c, long now) {
            long in = c.getBytesIn();
            long out = c.getMessagesOut();
            if (out != answered) {
                answered = out;
                baseBytes = in;
                since = -1;
                received = false;
                onExpiry = null;
                expired = false;
                return Optional.empty();
            }
            if (received || expired) {
                return Optional.empty();
            }
            if (since < 0) {
                if (in > baseBytes) {
                    since = now;
                }
                return Optional.empty();
            }
            if (now - since < timeoutNanos) {
                return Optional.empty();
            }
            expired = true;
            return Optional.of(new Expiry(Optional.ofNullable(onExpiry)));
        }
    }
}

package dev.jetsink.server.http;

import java.nio.channels.SelectableChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.IdleTimeout;
import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cap on open HTTP connections ({@code JETSINK_HTTP_MAX_CONNECTIONS}). A connection accepted
 * beyond the cap takes the place of the idle connection that has been quiet longest: that one is
 * closed at once, as nginx reuses idle keep-alive connections, so a sender dialling in never waits
 * behind connections that are only held open. Idle means open with no request in progress: no
 * byte of a request read since the last exchange completed. A connection with a request in
 * progress (headers arriving, a body uploading, an answer being made) is never closed here.
 *
 * <p>The newcomer is accepted first and the eviction runs on the thread that set up its
 * connection, so the accept loop never waits for a scan. When nothing is idle, that newcomer stays
 * (one above the cap), the connector stops accepting (later ones wait in the backlog) and every
 * open connection's idle timeout is cut to the at-limit value until the count is back at the cap;
 * meanwhile the choice is made again every {@link #UNUSED_GRACE_MILLIS}, since connections too
 * new to count as idle may have become idle.
 */
final class ConnectionCap implements SelectorManager.AcceptListener {

    private static final Logger log = LoggerFactory.getLogger(ConnectionCap.class);
    /**
     * Candidates remembered per scan of the open connections: a burst of newcomers at the cap then
     * costs one O(n) scan per this many evictions instead of one each.
     */
    static final int CANDIDATES_PER_SCAN = 64;
    /** Two readings of the same idle start differ by rounding; activity moves it by more. */
    private static final long CLOCK_SLACK_MILLIS = 2;
    /**
     * How long a connection that has not sent a byte yet is left to its first read before it
     * counts as idle: a sender that connects and writes its request at once has that request in
     * the kernel's buffers until the selector reads it, and closing it then would drop a request
     * that was never idle.
     */
    static final long UNUSED_GRACE_MILLIS = 250;

    private final AbstractConnector connector;
    private final int max;
    private final long atLimitIdleMillis;
    private final LongAdder evicted = new LongAdder();
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    /** Transports of evicted connections whose close has not been reported yet. */
    private final Set<Object> closing = ConcurrentHashMap.newKeySet();
    /**
     * Held while the count changes and a victim is chosen, so that two newcomers never pick the
     * same one and an eviction is counted as gone exactly until its close is reported.
     */
    private final Object eviction = new Object();
    /** The longest-idle connections the last scan found, oldest first; guarded by {@link #eviction}. */
    private final ArrayDeque<Candidate> candidates = new ArrayDeque<>();
    /** Guards {@link #limiting} and {@link #reconsidering}. */
    private final Object limit = new Object();
    private boolean limiting;
    private boolean reconsidering;

    ConnectionCap(AbstractConnector connector, int max, Duration atLimitIdle) {
        if (max < 1) {
            throw new IllegalArgumentException("connection cap must be at least 1: " + max);
        }
        this.connector = connector;
        this.max = max;
        this.atLimitIdleMillis = atLimitIdle.toMillis();
    }

    /** Idle connections closed to make room for new ones since the start. */
    long evicted() {
        return evicted.sum();
    }

    /** Open connections that are idle now (a snapshot; for tests and diagnostics). */
    int idleNow() {
        int n = 0;
        for (EndPoint e : connector.getConnectedEndPoints()) {
            if (e.isOpen() && idle(e, UNUSED_GRACE_MILLIS)) {
                n++;
            }
        }
        return n;
    }

    /** Called by the accept loop: only a count, so accepting never waits. */
    @Override
    public void onAccepting(SelectableChannel channel) {
        pending.incrementAndGet();
    }

    @Override
    public void onAcceptFailed(SelectableChannel channel, Throwable cause) {
        pending.decrementAndGet();
        liftLimitIfUnder();
    }

    /** Called once the newcomer's connection is set up, off the accept loop. */
    @Override
    public void onAccepted(SelectableChannel channel) {
        Optional<EndPoint> victim;
        synchronized (eviction) {
            pending.decrementAndGet();
            if (open.incrementAndGet() - closing.size() <= max) {
                return;
            }
            victim = leastRecentlyUsedIdle(channel);
            victim.ifPresent(v -> closing.add(v.getTransport()));
        }
        if (victim.isPresent()) {
            evicted.increment();
            victim.get().close();
        } else {
            limit();
        }
    }

    @Override
    public void onClosed(SelectableChannel channel) {
        synchronized (eviction) {
            open.decrementAndGet();
            closing.remove(channel);
        }
        liftLimitIfUnder();
    }

    private void limit() {
        synchronized (limit) {
            if (!limiting) {
                limiting = true;
                log.info("http connection limit reached max_connections={} idle=0: new connections wait", max);
                setLimited(true);
            }
        }
        // A close reported while the limit was being set must not leave it set.
        liftLimitIfUnder();
        reconsiderLater();
    }

    /**
     * While over the cap, looks again after {@link #UNUSED_GRACE_MILLIS}: connections that were too
     * new to count as idle when the newcomer arrived may be idle by then, and closing them (not
     * waiting for the at-limit idle timeout) lets the senders in the backlog in.
     */
    private void reconsiderLater() {
        synchronized (limit) {
            if (!limiting || reconsidering) {
                return;
            }
            reconsidering = true;
        }
        try {
            connector.getScheduler().schedule(this::reconsider, UNUSED_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RuntimeException stopped) {
            synchronized (limit) {
                reconsidering = false;
            }
        }
    }

    private void reconsider() {
        synchronized (limit) {
            reconsidering = false;
        }
        List<EndPoint> victims = new ArrayList<>();
        synchronized (eviction) {
            while (open.get() - closing.size() > max) {
                Optional<EndPoint> victim = leastRecentlyUsedIdle(null);
                if (victim.isEmpty()) {
                    break;
                }
                closing.add(victim.get().getTransport());
                victims.add(victim.get());
            }
        }
        for (EndPoint v : victims) {
            evicted.increment();
            v.close();
        }
        liftLimitIfUnder();
        reconsiderLater();
    }

    private void liftLimitIfUnder() {
        synchronized (limit) {
            // At the cap accepting is safe again: the next newcomer evicts or sets the limit anew.
            if (limiting && open.get() + pending.get() <= max) {
                limiting = false;
                log.info("http connection limit cleared max_connections={}", max);
                setLimited(false);
            }
        }
    }

    /** The connection idle longest, other than {@code newcomer}; empty when none is idle. */
    private Optional<EndPoint> leastRecentlyUsedIdle(SelectableChannel newcomer) {
        Optional<EndPoint> next = nextCandidate(newcomer, true);
        if (next.isEmpty()) {
            scan(newcomer);
            next = nextCandidate(newcomer, false);
        }
        return next;
    }

    /**
     * The oldest remembered candidate that is still open, idle and (with {@code checkActivity})
     * untouched since the scan. One that saw activity meanwhile is dropped: it is no longer among
     * the longest idle, while every connection the scan passed over was younger then and has aged
     * no faster since. Right after a scan the check is skipped: the readings are fresh, and a pause
     * during the scan must not make every candidate look touched.
     */
    private Optional<EndPoint> nextCandidate(SelectableChannel newcomer, boolean checkActivity) {
        for (Candidate c = candidates.pollFirst(); c != null; c = candidates.pollFirst()) {
            EndPoint e = c.endPoint();
            if (evictable(e, newcomer) && (!checkActivity || idleSince(e) <= c.idleSince() + CLOCK_SLACK_MILLIS)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    /** Remembers the {@value #CANDIDATES_PER_SCAN} longest-idle connections, oldest first. */
    private void scan(SelectableChannel newcomer) {
        PriorityQueue<Candidate> youngestFirst = new PriorityQueue<>(
            Comparator.comparingLong(Candidate::idleSince).reversed());
        for (EndPoint e : connector.getConnectedEndPoints()) {
            if (!evictable(e, newcomer)) {
                continue;
            }
            Candidate c = new Candidate(e, idleSince(e));
            if (youngestFirst.size() < CANDIDATES_PER_SCAN) {
                youngestFirst.add(c);
            } else if (c.idleSince() < youngestFirst.peek().idleSince()) {
                youngestFirst.poll();
                youngestFirst.add(c);
            }
        }
        List<Candidate> found = new ArrayList<>(youngestFirst);
        found.sort(Comparator.comparingLong(Candidate::idleSince));
        candidates.addAll(found);
    }

    private boolean evictable(EndPoint e, SelectableChannel newcomer) {
        return e.getTransport() != newcomer && e.isOpen() && !closing.contains(e.getTransport())
            && idle(e, UNUSED_GRACE_MILLIS);
    }

    /**
     * When {@code e} last saw a byte in either direction, in {@link System#nanoTime} milliseconds
     * (read next to Jetty's own clock reading, so a long scan does not skew it).
     */
    private static long idleSince(EndPoint e) {
        return System.nanoTime() / 1_000_000 - (e instanceof IdleTimeout t ? t.getIdleFor() : 0);
    }

    /** A connection found idle by a scan, and since when. */
    private record Candidate(EndPoint endPoint, long idleSince) {
    }

    /**
     * Whether the HTTP/1.1 connection on {@code endPoint} (inside TLS when there is TLS) is between
     * requests: its parser waits for the first byte of a request and no unparsed byte is buffered.
     * Jetty resets the parser only once an exchange has completed, so a request whose headers or
     * body are arriving, or whose answer is still being made, is never idle. A connection that has
     * not read a byte yet is idle only once it has been quiet for {@code unusedGraceMillis} (its
     * first request may be waiting to be read). Anything that is not an HTTP/1.1 connection counts
     * as busy.
     */
    static boolean idle(EndPoint endPoint, long unusedGraceMillis) {
        Connection c = endPoint.getConnection();
        if (c instanceof SslConnection ssl) {
            c = ssl.getSslEndPoint().getConnection();
        }
        if (!(c instanceof HttpConnection http) || !http.getParser().isStart() || !http.isRequestBufferEmpty()) {
            return false;
        }
        return http.getBytesIn() > 0 || !(endPoint instanceof IdleTimeout t) || t.getIdleFor() >= unusedGraceMillis;
    }

    private void setLimited(boolean limited) {
        connector.setAccepting(!limited);
        long idleTimeout = limited ? Math.min(atLimitIdleMillis, connector.getIdleTimeout()) : connector.getIdleTimeout();
        for (EndPoint e : connector.getConnectedEndPoints()) {
            e.setIdleTimeout(idleTimeout);
        }
    }
}

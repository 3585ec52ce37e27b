package dev.jetsink.server.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.awaitility.Awaitility;

/**
 * A bounded load generator: {@code total} notify events, each carrying its number in its object key
 * ({@code faults/ev-<n>.json}), POSTed by a few sender threads at an offered rate. An event counts
 * as acknowledged only on a 200. Anything else (a refusal, a reset connection, a daemon that is
 * gone) is retried after a short pause until the event is acknowledged or the load is closed, as
 * a webhook sender does. Attempts whose outcome the sender cannot know (no answer, or a 5xx) are
 * remembered per event: only such events may legitimately appear twice in the stream.
 */
public final class EventLoad implements AutoCloseable {

    public static final String BUCKET = "faults";
    /** A status code stand-in for "no HTTP answer" (connection refused or reset, timeout). */
    public static final int NO_ANSWER = -1;
    private static final long RETRY_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(25);

    private final Supplier<URI> base;
    private final HttpClient http;
    private final int first;
    private final int total;
    private final int eventsPerSecond;
    private final AtomicInteger next = new AtomicInteger();
    private final Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
    private final Set<Integer> ambiguous = ConcurrentHashMap.newKeySet();
    private final Set<Integer> refused = ConcurrentHashMap.newKeySet();
    private final Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
    private final List<Thread> senders = new ArrayList<>();
    private final AtomicInteger connectionsRefused = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicLong longestAnswerNanos = new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean closed;
    private long startNanos;

    /**
     * @param base where the daemon is now (read before every attempt, so restarts are followed)
     * @param total how many events
     * @param eventsPerSecond offered rate, so faults land while the stream is still running
     */
    public EventLoad(Supplier<URI> base, HttpClient http, int total, int eventsPerSecond) {
        this(base, http, 0, total, eventsPerSecond);
    }

    /**
     * A load of events {@code first .. first + total - 1}, so several loads (one per daemon) never
     * send the same event.
     */
    public EventLoad(Supplier<URI> base, HttpClient http, int first, int total, int eventsPerSecond) {
        this.first = first;
        this.base = base;
        this.http = http;
        this.total = total;
        this.eventsPerSecond = eventsPerSecond;
    }

    public static String key(int n) {
        return "ev-" + n + ".json";
    }

    public static String body(int n) {
        return WebhookFixtures.webhook("s3:ObjectCreated:Put", BUCKET, key(n), key(n), n);
    }

    /** The event number in a published {@code Key} ({@code faults/ev-<n>.json}), or -1. */
    public static int numberOf(String key) {
        String prefix = BUCKET + "/ev-";
        if (!key.startsWith(prefix) || !key.endsWith(".json")) {
            return -1;
        }
        try {
            return Integer.parseInt(key.substring(prefix.length(), key.length() - ".json".length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    public EventLoad start(int threads) {
        startNanos = System.nanoTime();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(this::send, "event-load-" + i);
            t.setDaemon(true);
            senders.add(t);
            t.start();
        }
        return this;
    }

    private void send() {
        int i;
        while (!closed && (i = next.getAndIncrement()) < total) {
            int n = first + i;
            long due = startNanos + (long) i * 1_000_000_000L / eventsPerSecond;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            while (!closed && !deliver(n)) {
                LockSupport.parkNanos(RETRY_PAUSE_NANOS);
            }
        }
    }

    private boolean deliver(int n) {
        HttpRequest req = HttpRequest.newBuilder(base.get().resolve("/notify")).timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body(n))).build();
        int status;
        long sent = System.nanoTime();
        try {
            status = http.send(req, HttpResponse.BodyHandlers.discarding()).statusCode();
            longestAnswerNanos.accumulateAndGet(System.nanoTime() - sent, Math::max);
        } catch (IOException e) {
            if (e instanceof java.net.ConnectException) {
                connectionsRefused.incrementAndGet();
            }
            status = NO_ANSWER;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
            return false;
        }
        statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
        if (status == 200) {
            acknowledged.add(n);
            return true;
        }
        refused.add(n);
        if (status == NO_ANSWER || status >= 500 && status != 503) {
            // The daemon may have queued it before the answer was lost: a retry may duplicate it.
            ambiguous.add(n);
        }
        return false;
    }

    /** Attempts whose connection was refused (nothing listened on the port). */
    public int connectionsRefused() {
        return connectionsRefused.get();
    }

    /** The longest time any answered attempt waited for its answer. */
    public Duration longestAnswer() {
        return Duration.ofNanos(longestAnswerNanos.get());
    }

    public int acknowledgedCount() {
        return acknowledged.size();
    }

    public Set<Integer> acknowledged() {
        return Set.copyOf(acknowledged);
    }

    /** Events with at least one attempt whose outcome is unknown (no answer, or a 5xx other than 503). */
    Set<Integer> ambiguous() {
        return Set.copyOf(ambiguous);
    }

    /** Events with at least one attempt not answered 200. */
    public Set<Integer> refused() {
        return Set.copyOf(refused);
    }

    /** Attempts by HTTP status ({@link #NO_ANSWER} for none), sorted. */
    public Map<Integer, Integer> statuses() {
        Map<Integer, Integer> out = new TreeMap<>();
        statuses.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    public int count(int status) {
        AtomicInteger c = statuses.get(status);
        return c == null ? 0 : c.get();
    }

    public void awaitAcknowledged(int atLeast, Duration atMost) {
        Awaitility.await().atMost(atMost).pollInterval(Duration.ofMillis(20))
            .until(() -> acknowledged.size() >= atLeast);
    }

    public void awaitAnswered(int status, int times, Duration atMost) {
        Awaitility.await().atMost(atMost).pollInterval(Duration.ofMillis(20)).until(() -> count(status) >= times);
    }

    /** Waits until every event is acknowledged. */
    public void awaitAll(Duration atMost) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        for (Thread t : senders) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        if (acknowledged.size() < total) {
            throw new IllegalStateException("only " + acknowledged.size() + " of " + total
                + " events acknowledged within " + atMost + "; attempts by status " + statuses());
        }
    }

    /** Stops sending and waits up to 35 s per sender; interrupted, it stops waiting and keeps the flag. */
    @Override
    public void close() {
        closed = true;
        try {
            for (Thread t : senders) {
                t.join(35_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package dev.jetsink.server.chaos;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One object store's webhook client: posts distinct events to one daemon, one request at a time
 * (request {@code seq + 1} only once {@code seq} was answered 2xx, so the order jetsink accepts its
 * events in is their request order), and re-sends the same bytes until the answer is a 2xx —
 * through refusals, resets, timeouts and daemon restarts, as MinIO's queue and Ceph's persistent
 * topics do. Once told to stop, it starts no new event but keeps re-sending the one in hand until
 * it is taken or it is abandoned.
 */
final class Sender implements Runnable {

    private static final Duration DEADLINE = Duration.ofSeconds(25);
    private static final AtomicInteger clientDeadlines = new AtomicInteger();
    /** Events sent again after a request got no answer: the daemon may have taken them the first time. */
    private static final AtomicInteger resentUnanswered = new AtomicInteger();

    private final int id;
    private final SenderForm form;
    private final DaemonSlot daemon;
    private final Ledger.Route path;
    private final Ledger ledger;
    private final History history;
    private final HttpClient http;
    private final long pauseMillis;
    private volatile boolean stopNew;
    private volatile boolean abandon;
    /** Whether {@link #abandon} cut off an event that was never taken. */
    private volatile boolean abandoned;
    private final Thread thread;

    Sender(int id, SenderForm form, DaemonSlot daemon, Ledger.Route path, Ledger ledger, History history,
           HttpClient http, long pauseMillis) {
        this.id = id;
        this.form = form;
        this.daemon = daemon;
        this.path = path;
        this.ledger = ledger;
        this.history = history;
        this.http = http;
        this.pauseMillis = pauseMillis;
        this.thread = new Thread(this, "chaos-sender-" + id);
        thread.setDaemon(true);
    }

    String describe() {
        return "sender " + id + " " + form.name().toLowerCase() + " -> daemon " + daemon.name + " " + form.path
            + " (" + path.name().toLowerCase() + ")";
    }

    void start() {
        thread.start();
    }

    void stopNew() {
        stopNew = true;
    }

    /** Waits up to {@code atMost} for the event in hand to be taken; then abandons it. Returns whether it was. */
    boolean finish(Duration atMost) throws InterruptedException {
        stopNew = true;
        thread.join(atMost.toMillis());
        abandon = true;
        thread.join(30_000);
        return !thread.isAlive() && !abandoned;
    }

    @Override
    public void run() {
        long seq = 0;
        while (!stopNew) {
            List<String> tokens = form.tokens(id, seq);
            byte[] body = form.body(id, seq, tokens).getBytes(StandardCharsets.UTF_8);
            tokens.forEach(t -> ledger.sent(t, path));
            history.log("send sender=" + id + " object=" + SenderForm.objectKey(Integer.toString(id), seq)
                + " events=" + tokens);
            int attempts = 0;
            while (true) {
                if (abandon) {
                    abandoned = true;
                    history.log("abandoned sender=" + id + " events=" + tokens + " attempts=" + attempts);
                    return;
                }
                attempts++;
                int status = post(body, tokens.size());
                if (status >= 200 && status < 300) {
                    tokens.forEach(ledger::acked);
                    history.log("ack sender=" + id + " status=" + status + " attempts=" + attempts + " events=" + tokens);
                    break;
                }
                if (status == -1) {
                    resentUnanswered.addAndGet(tokens.size());
                }
                if (attempts == 1 || attempts % 20 == 0) {
                    history.log("retry sender=" + id + " status=" + status + " attempts=" + attempts + " events=" + tokens);
                }
                sleep(form.retryPauseMillis);
            }
            seq++;
            sleep(pauseMillis);
        }
    }

    /**
     * The answer's status, or -1 when there was none (refused, reset, timed out). The request's
     * own timeout is not enough: with {@code Expect: 100-continue} the JDK 17 client never
     * completes, 15 s timeout or not, when a final answer comes before {@code 100 Continue} and
     * the connection stays open a while, and a few requests a run hung so at daemon stops and
     * restarts (RELIABILITY.md, finding 1); so the sender keeps its own deadline, as real
     * senders do (curl's low-speed abort).
     */
    private int post(byte[] body, int count) {
        HttpRequest.Builder req = HttpRequest.newBuilder(daemon.base().resolve(form.path))
            .timeout(Duration.ofSeconds(15)).POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .expectContinue(form == SenderForm.CEPH_NOTIFY);
        form.headers(count).forEach(req::header);
        CompletableFuture<HttpResponse<Void>> answer = http.sendAsync(req.build(), HttpResponse.BodyHandlers.discarding());
        try {
            return answer.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS).statusCode();
        } catch (TimeoutException e) {
            answer.cancel(true);
            clientDeadlines.incrementAndGet();
            history.log("client-deadline sender=" + id + " no answer and no timeout after " + DEADLINE.toSeconds() + " s");
            return -1;
        } catch (ExecutionException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandon = true;
            return -1;
        }
    }

    /** Events sent again after an attempt got no answer (the daemon may have taken them the first time). */
    static int resentUnanswered() {
        return resentUnanswered.get();
    }

    /** Requests the sender gave up on itself because the HTTP client neither answered nor timed out. */
    static int clientDeadlines() {
        return clientDeadlines.get();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

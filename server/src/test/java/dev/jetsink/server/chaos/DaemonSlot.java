package dev.jetsink.server.chaos;

import dev.jetsink.server.testing.MetricsText;
import dev.jetsink.server.testing.ServeProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One {@code jetsink serve} daemon of the campaign across its restarts: its environment, the
 * running process, where it answers now (a restart binds a new port; senders follow
 * {@link #base()}), and the highest duplicate-ack count each of its processes reported.
 */
final class DaemonSlot {

    private static final Duration START = Duration.ofSeconds(90);
    private static final int LOG_TAIL = 200;

    final String name;
    final Path queueRoot;
    private final Map<String, String> env;
    private final HttpClient http;
    private final AtomicReference<URI> base = new AtomicReference<>(URI.create("http://127.0.0.1:1"));
    private final List<String> pastLogTails = new ArrayList<>();
    /** Per process id, the highest {@code jetsink_duplicate_acks_total} read from it. */
    private final Map<Long, Double> duplicateAcks = new ConcurrentHashMap<>();
    private Optional<ServeProcess> process = Optional.empty();
    /** What the daemon logs for each duplicate whose stored copy's number it could not read back. */
    private static final String UNREAD_COPY = "the stored copy of a duplicate could not be read back";
    private long pastUnreadCopies;
    /** The last process whose lines {@link #keepTail} took. */
    private ServeProcess tailKept;

    DaemonSlot(String name, Path queueRoot, Map<String, String> env, HttpClient http) {
        this.name = name;
        this.queueRoot = queueRoot;
        this.env = Map.copyOf(env);
        this.http = http;
    }

    URI base() {
        return base.get();
    }

    synchronized boolean alive() {
        return process.map(p -> p.process.isAlive()).orElse(false);
    }

    synchronized void start() throws Exception {
        if (alive()) {
            return;
        }
        process.ifPresent(this::keepTail); // a process that ended by itself: its lines count too
        ServeProcess serve = ServeProcess.start(env);
        process = Optional.of(serve);
        base.set(URI.create("http://127.0.0.1:" + serve.awaitPort(START)));
    }

    /** SIGKILL: a crash. */
    synchronized void kill() throws InterruptedException {
        ServeProcess serve = process.orElseThrow();
        sampleQuietly();
        serve.kill(Duration.ofSeconds(30));
        keepTail(serve);
    }

    /** SIGTERM; returns the exit code. */
    synchronized int terminate() throws Exception {
        ServeProcess serve = process.orElseThrow();
        sampleQuietly();
        int code = serve.terminate(Duration.ofSeconds(30));
        keepTail(serve);
        return code;
    }

    private void keepTail(ServeProcess serve) {
        if (serve == tailKept) {
            return; // kept when it was stopped
        }
        tailKept = serve;
        List<String> lines = serve.lines();
        pastUnreadCopies += unreadCopies(lines);
        pastLogTails.add(String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL), lines.size())));
    }

    /**
     * Duplicates whose stored copy's {@code Jetsink-Sequence} the daemon could not read back, over
     * all its processes: each may show its object a gap of one with nothing missing.
     */
    synchronized long unreadCopies() {
        return pastUnreadCopies + process.filter(p -> p != tailKept).map(p -> unreadCopies(p.lines())).orElse(0L);
    }

    private static long unreadCopies(List<String> lines) {
        return lines.stream().filter(l -> l.contains(UNREAD_COPY)).count();
    }

    /** The last lines of every process of this daemon, oldest first. */
    synchronized String logTails() {
        List<String> all = new ArrayList<>(pastLogTails);
        process.filter(p -> p.process.isAlive()).ifPresent(p -> {
            List<String> lines = p.lines();
            all.add(String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL), lines.size())));
        });
        return "--- daemon " + name + " ---\n" + String.join("\n--- restart ---\n", all);
    }

    /** The running process' metrics: each sample by its series and labels. */
    Map<String, Double> metrics() throws IOException, InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(base().resolve("/metrics")).timeout(Duration.ofSeconds(10)).GET().build();
        return MetricsText.samples(http.send(req, HttpResponse.BodyHandlers.ofString()).body());
    }

    /** Reads the duplicate-ack counter of the running process, if it answers. */
    void sampleQuietly() {
        Optional<ServeProcess> now;
        synchronized (this) {
            now = process.filter(p -> p.process.isAlive());
        }
        if (now.isEmpty()) {
            return;
        }
        try {
            double acks = MetricsText.sum(metrics(), "jetsink_duplicate_acks_total");
            duplicateAcks.merge(now.get().process.pid(), acks, Math::max);
        } catch (IOException e) {
            // stopping or stopped: the last sample stands
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Duplicate acks over every process of this daemon (a SIGKILL loses what came after the last sample). */
    long duplicateAcks() {
        return (long) duplicateAcks.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** Entries queued now, over both kinds. */
    double queueLength() throws IOException, InterruptedException {
        Map<String, Double> m = metrics();
        return MetricsText.sum(m, "rustfs_notification_target_queue_length") + MetricsText.sum(m, "rustfs_audit_target_queue_length");
    }

    synchronized void close() {
        process.ifPresent(p -> {
            try {
                p.kill(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }
}

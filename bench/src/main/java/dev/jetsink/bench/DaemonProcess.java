package dev.jetsink.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code jetsink serve} child process from the shipped jar (the launcher's default heap) with one
 * notify target on the JetStream path, listening on a free loopback port.
 */
final class DaemonProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final Process process;
    private final String host;
    private final int port;

    private DaemonProcess(Process process, String address) {
        this.process = process;
        int colon = address.lastIndexOf(':');
        this.host = address.substring(0, colon);
        this.port = Integer.parseInt(address.substring(colon + 1));
    }

    /** Environment variable with more JVM options for every daemon a bench starts (an A/B of GC settings). */
    static final String EXTRA_OPTIONS = "BENCH_DAEMON_JAVA_OPTS";

    /** The options of {@link #EXTRA_OPTIONS}, split at white space; none when unset or blank. */
    static List<String> extraOptions(String value) {
        return value == null || value.isBlank() ? List.of() : List.of(value.trim().split("\\s+"));
    }

    /**
     * Starts the daemon and waits until it names the address it bound.
     *
     * @param jvmOptions extra JVM options (e.g. a flight recording), after the launcher's heap
     */
    static DaemonProcess start(Path jar, String natsUrl, String stream, String subject, Path queueDir,
                               List<String> jvmOptions) throws Exception {
        return start(jar, natsUrl, stream, subject, queueDir, jvmOptions, Map.of());
    }

    /** As above, with more environment (another target, a setting) over the notify target's. */
    static DaemonProcess start(Path jar, String natsUrl, String stream, String subject, Path queueDir,
                               List<String> jvmOptions, Map<String, String> moreEnv) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx192m"));
        cmd.addAll(jvmOptions);
        List<String> extra = extraOptions(System.getenv(EXTRA_OPTIONS));
        if (!extra.isEmpty()) {
            System.out.println("daemon JVM options from " + EXTRA_OPTIONS + ": " + String.join(" ", extra));
        }
        cmd.addAll(extra);
        cmd.addAll(List.of("-jar", jar.toString(), "serve"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        var env = pb.environment();
        env.put("JETSINK_HTTP_ADDRESS", "127.0.0.1:0");
        env.put("RUSTFS_NOTIFY_NATS_ENABLE", "on");
        env.put("RUSTFS_NOTIFY_NATS_ADDRESS", natsUrl);
        env.put("RUSTFS_NOTIFY_NATS_SUBJECT", subject);
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_ENABLE", "on");
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_STREAM_NAME", stream);
        env.put("RUSTFS_NOTIFY_NATS_QUEUE_DIR", queueDir.toString());
        env.put("RUSTFS_NOTIFY_NATS_QUEUE_LIMIT", "1000000");
        env.putAll(moreEnv);
        Process p = pb.start();
        try {
            return new DaemonProcess(p, awaitAddress(p));
        } catch (Exception | Error e) {
            p.destroyForcibly();
            throw e;
        }
    }

    String host() {
        return host;
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    /** User plus system CPU of the daemon so far, from {@code /proc/PID/stat} (clock ticks of 10 ms). */
    double cpuSeconds() throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid() + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
    }

    /**
     * The sum of every series of {@code name} on the daemon's {@code /metrics} scrape (one target
     * here, so one series), e.g. {@code rustfs_notification_total_messages}.
     */
    double metric(String name) throws IOException, InterruptedException {
        HttpResponse<String> scrape = HTTP.send(HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + "/metrics"))
            .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        double sum = 0;
        boolean found = false;
        for (String line : scrape.body().split("\n")) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                found = true;
            }
        }
        if (!found) {
            throw new IllegalStateException("no " + name + " on /metrics");
        }
        return sum;
    }

    /** How long the accepted count must stay still before the intake counts as settled. */
    private static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * Waits (at most 3 minutes) until the queue counted by {@code queueMetric} is empty and the
     * events counted by {@code acceptedMetric} have not moved for a second; returns the
     * {@link System#nanoTime} at which they last moved. Requests wrk left in flight at its
     * deadline are still being taken in when the queue first reads empty: on a busy host one can
     * take well over 100 ms, so a shorter stillness let them land in the next round's counts.
     */
    long awaitSettled(String acceptedMetric, String queueMetric) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        double accepted = -1;
        long moved = System.nanoTime();
        while (true) {
            double now = metric(acceptedMetric);
            boolean empty = metric(queueMetric) == 0;
            long at = System.nanoTime();
            if (now != accepted || !empty) {
                accepted = now;
                moved = at;
            } else if (at - moved >= QUIET_NANOS) {
                return moved;
            }
            if (at > deadline) {
                throw new IllegalStateException("queue not drained within 3 minutes");
            }
            Thread.sleep(50);
        }
    }

    /**
     * SIGTERM, then up to 10 s for a clean exit (which also dumps a flight recording), then kill.
     * Interrupted while waiting, it returns at once with the thread's interrupt flag set again.
     */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Reads the daemon's log until it names the address it bound; then discards the rest. */
    private static String awaitAddress(Process daemon) throws Exception {
        BufferedReader r = new BufferedReader(new InputStreamReader(daemon.getInputStream(), StandardCharsets.UTF_8));
        Matcher m = Pattern.compile("http listening address=(\\S+?)[\"\\s]").matcher("");
        for (String line = r.readLine(); line != null; line = r.readLine()) {
            if (m.reset(line + " ").find()) {
                String address = m.group(1);
                Thread drain = new Thread(() -> {
                    try {
                        r.lines().forEach(l -> { });
                    } catch (java.io.UncheckedIOException closed) {
                        // the daemon exited
                    }
                });
                drain.setDaemon(true);
                drain.start();
                return address;
            }
        }
        throw new IllegalStateException("jetsink serve exited before listening");
    }
}

package dev.jetsink.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Batched ingest, the form a busy MinIO with {@code batch_size} sends: a real {@code jetsink serve}
 * (the shipped jar, JetStream path, fsync on) taking MinIO audit NDJSON batches on {@code /audit}
 * and S3 notification bodies with several {@code Records} on {@code /notify} from {@code wrk},
 * against raw jnats {@code publishAsync} of one event's bytes into the same broker.
 *
 * <p>A jetsink round runs wrk for {@code --seconds}, then waits until the daemon's queue is empty:
 * its rate is the events the stream gained divided by the time from the first POST to the last
 * event stored, and its CPU is the daemon's over that same time, per event. Rounds alternate which
 * side goes first; each figure is reported as min, median and max over the rounds ({@link Spread}),
 * the ratio as the median of per-round ratios, CPU pressure beside each round.
 *
 * <p>Then the same forms, each event about an object of its own, into a second daemon with
 * {@code ORDER=key} for both targets, alternated round by round with the first daemon
 * ({@code order_key_vs_default}); with {@code --subject-per-object} both daemons' notify targets
 * publish on a subject per object, so the ordered one's publishes carry
 * {@code Nats-Expected-Last-Subject-Sequence}.
 *
 * <p>Usage: {@code BatchBench --jar JAR --out RESULTS.json --wrk WRK [--seconds 20] [--rounds 3]
 * [--audit-entries 100] [--notify-records 10] [--connections 16]}
 */
public final class BatchBench {

    private static final String NOTIFY_STREAM = "BATCH_NOTIFY";
    private static final String AUDIT_STREAM = "BATCH_AUDIT";
    private static final String RAW_STREAM = "BATCH_RAW";
    private static final String RAW_SUBJECT = "bench.batch.raw";

    /** One batched form: how wrk builds its bodies, where the daemon counts and stores them. */
    private record Form(String name, Wrk.Shape shape, byte[] oneEvent, String stream, String accepted, String queueLength) {
    }

    private BatchBench() {
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException; try-with-resources is still how it is closed
    public static void main(String[] args) throws Exception {
        Map<String, String> opts = BenchOptions.parse(args);
        for (String required : List.of("jar", "out", "wrk")) {
            if (!opts.containsKey(required)) {
                throw new IllegalArgumentException("usage: BatchBench --jar JAR --out RESULTS.json --wrk WRK [--seconds 20] "
                    + "[--rounds 3] [--audit-entries 100] [--notify-records 10] [--connections 16] [--order-only yes] [--subject-per-object yes]");
            }
        }
        int seconds = Integer.parseInt(opts.getOrDefault("seconds", "20"));
        int rounds = Integer.parseInt(opts.getOrDefault("rounds", "3"));
        int auditEntries = Integer.parseInt(opts.getOrDefault("audit-entries", "100"));
        int notifyRecords = Integer.parseInt(opts.getOrDefault("notify-records", "10"));
        int connections = Integer.parseInt(opts.getOrDefault("connections", "16"));
        if (rounds < 1 || seconds < 1) {
            throw new IllegalArgumentException("--rounds and --seconds must be at least 1");
        }
        Path out = Path.of(opts.get("out"));
        byte[] notifyBody = resource("minio-notify-put.json");
        byte[] auditEntry = resource("minio-audit-entry.json");
        List<Form> forms = List.of(
            new Form("audit_ndjson_" + auditEntries, Wrk.auditBatch(auditEntry, auditEntries), auditEntry, AUDIT_STREAM,
                "rustfs_audit_total_messages", "rustfs_audit_target_queue_length"),
            new Form("notify_records_" + notifyRecords, Wrk.notify(notifyBody, notifyRecords), notifyBody, NOTIFY_STREAM,
                "rustfs_notification_total_messages", "rustfs_notification_target_queue_length"));

        Map<String, Object> section = new LinkedHashMap<>();
        section.put("seconds", seconds);
        section.put("rounds", rounds);
        section.put("wrk_connections", connections);
        Path work = Files.createTempDirectory("jetsink-batch-bench");
        try (NatsServer server = NatsServer.builder().build().start();
             Connection admin = Nats.connect(server.url());
             Connection raw = Nats.connect(server.url())) {
            Duration window = Duration.ofSeconds(274);
            Streams.create(admin, StreamSpec.of(NOTIFY_STREAM, "bench.batch.notify", "bench.batch.notify.>")
                .duplicateWindow(window).build());
            Streams.create(admin, StreamSpec.of(AUDIT_STREAM, "bench.batch.audit").duplicateWindow(window).build());
            Streams.create(admin, StreamSpec.of(RAW_STREAM, RAW_SUBJECT).duplicateWindow(window).build());
            Map<String, String> audit = Map.of("RUSTFS_AUDIT_ENABLE", "on", "RUSTFS_AUDIT_NATS_ENABLE", "on",
                "RUSTFS_AUDIT_NATS_ADDRESS", server.url(), "RUSTFS_AUDIT_NATS_SUBJECT", "bench.batch.audit",
                "RUSTFS_AUDIT_NATS_JETSTREAM_ENABLE", "on", "RUSTFS_AUDIT_NATS_JETSTREAM_STREAM_NAME", AUDIT_STREAM,
                "RUSTFS_AUDIT_NATS_QUEUE_DIR", Files.createDirectories(work.resolve("queue")).toString(),
                "RUSTFS_AUDIT_NATS_QUEUE_LIMIT", "1000000");
            boolean orderOnly = opts.containsKey("order-only");
            if (!orderOnly) {
                try (DaemonProcess daemon = DaemonProcess.start(Path.of(opts.get("jar")), server.url(), NOTIFY_STREAM,
                    "bench.batch.notify", work.resolve("queue"), List.of(), audit)) {
                    for (Form form : forms) {
                        Wrk wrk = Wrk.posting(Path.of(opts.get("wrk")), form.shape(), connections, work);
                        section.put(form.name(), measure(form, wrk, daemon, admin, raw, seconds, rounds));
                    }
                }
            }
            // ORDER=key beside the default, on bodies whose events are each about an object of its own,
            // each in a daemon of its own started for this (the same JIT history: a daemon warmed by the
            // rounds above would be compared with a cold one)
            List<Form> spread = List.of(
                new Form("audit_ndjson_" + auditEntries, Wrk.auditSpread(auditEntry, auditEntries), auditEntry, AUDIT_STREAM,
                    forms.get(0).accepted(), forms.get(0).queueLength()),
                new Form("notify_records_" + notifyRecords, Wrk.notifySpread(notifyBody, notifyRecords), notifyBody,
                    NOTIFY_STREAM, forms.get(1).accepted(), forms.get(1).queueLength()));
            try (DaemonProcess plain = startSpread(opts, server.url(), work, "queue-plain", audit, false);
                 DaemonProcess ordered = startSpread(opts, server.url(), work, "queue-ordered", audit, true)) {
                Map<String, Object> order = new LinkedHashMap<>();
                for (Form form : spread) {
                    Wrk wrk = Wrk.posting(Path.of(opts.get("wrk")), form.shape(), connections, work);
                    order.put(form.name(), measureOrder(form, wrk, plain, ordered, admin, seconds, rounds));
                }
                section.put("order_key_vs_default", order);
            }
        } finally {
            BenchFiles.deleteTree(work);
        }
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = Files.exists(out) ? (ObjectNode) json.readTree(out.toFile()) : json.createObjectNode();
        if (opts.containsKey("order-only")) {
            // merged into the section a full run wrote
            ((ObjectNode) root.path("batch")).set("order_key_vs_default", json.valueToTree(section.get("order_key_vs_default")));
            json.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), root);
            System.out.println("--order-only: wrote order_key_vs_default of section batch of " + out);
            return;
        }
        root.set("batch", json.valueToTree(section));
        json.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), root);
        System.out.println("wrote section batch of " + out);
    }

    /** A daemon for the order comparison, with both targets ordered by object or neither, its queues in {@code dir}. */
    private static DaemonProcess startSpread(Map<String, String> opts, String url, Path work, String dir,
                                             Map<String, String> audit, boolean ordered) throws Exception {
        Map<String, String> env = new java.util.HashMap<>(audit);
        env.put("RUSTFS_AUDIT_NATS_QUEUE_DIR", Files.createDirectories(work.resolve(dir)).toString());
        if (ordered) {
            env.put("RUSTFS_AUDIT_NATS_ORDER", "key");
            env.put("RUSTFS_NOTIFY_NATS_ORDER", "key");
        }
        if (opts.containsKey("subject-per-object")) {
            // both daemons publish notify events on a subject per object; the ordered one's then carry
            // Nats-Expected-Last-Subject-Sequence
            env.put("RUSTFS_NOTIFY_NATS_SUBJECT", "bench.batch.notify.{bucket}.{key_prefix:8}");
        }
        return DaemonProcess.start(Path.of(opts.get("jar")), url, NOTIFY_STREAM, "bench.batch.notify", work.resolve(dir),
            List.of(), env);
    }

    private static Map<String, Object> measure(Form form, Wrk wrk, DaemonProcess daemon, Connection admin, Connection raw,
                                               int seconds, int rounds) throws Exception {
        int per = form.shape().perRequest();
        System.out.printf("%n%s: %d events per POST, %d B per event, %d connections%n", form.name(), per,
            form.oneEvent().length, wrk.connections());
        // the JIT needs about 20 s of load on two busy cores before the hot paths are compiled
        System.out.println("warm-up jetsink  " + wrk.run(daemon.host(), daemon.port(), Math.min(20, seconds)).summary());
        awaitSettled(daemon, form);
        System.out.println("warm-up raw      " + RawPublishLoad.run(raw, RAW_SUBJECT, form.oneEvent(), Duration.ofSeconds(3)).summary());
        List<Double> eps = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        List<Double> rawEps = new ArrayList<>();
        List<Double> pressure = new ArrayList<>();
        List<Double> rawPressure = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            for (boolean jetsinkTurn : round % 2 == 0 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                if (jetsinkTurn) {
                    JetsinkRound j = jetsinkRound(form, wrk, daemon, admin, seconds);
                    eps.add(j.eventsPerSecond);
                    cpu.add(j.cpuMicrosPerEvent);
                    pressure.add(j.pressure);
                    p99.add(j.requestP99Ms);
                } else {
                    long before = Streams.state(admin, RAW_STREAM).getMsgCount();
                    RawPublishLoad.Result p = RawPublishLoad.run(raw, RAW_SUBJECT, form.oneEvent(), Duration.ofSeconds(seconds));
                    long stored = Streams.state(admin, RAW_STREAM).getMsgCount() - before;
                    if (stored != p.acked() || p.errors() > 0) {
                        throw new IllegalStateException("raw publish: " + p.acked() + " acked, " + stored + " stored, "
                            + p.errors() + " errors");
                    }
                    System.out.println("  round " + (round + 1) + " raw     " + p.summary());
                    rawEps.add(p.eventsPerSecond());
                    rawPressure.add(p.cpuPressurePct());
                }
            }
        }
        List<Double> ratio = Spread.ratios(eps, rawEps);
        System.out.printf("%s: jetsink %s events/s end to end, raw publish %s, ratio %s (goal >= 0.8), "
                + "daemon CPU %s us per event (goal <= 20)%n", form.name(), Spread.text(eps, "%.0f"),
            Spread.text(rawEps, "%.0f"), Spread.text(ratio, "%.2f"), Spread.text(cpu, "%.1f"));
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("events_per_post", per);
        r.put("event_bytes", form.oneEvent().length);
        r.put("jetsink_eps", Spread.of(eps, 0));
        r.put("raw_eps", Spread.of(rawEps, 0));
        r.put("ratio_vs_raw", Spread.of(ratio, 2));
        r.put("daemon_cpu_us_per_event", Spread.of(cpu, 1));
        r.put("request_p99_ms", Spread.of(p99, 1));
        r.put("jetsink_cpu_pressure_pct", Spread.of(pressure, 1));
        r.put("raw_cpu_pressure_pct", Spread.of(rawPressure, 1));
        return r;
    }

    /**
     * The same spread-object bodies into a daemon with the default order and one with {@code ORDER=key},
     * alternated round by round: events/s end to end and daemon CPU per event of each, and their ratios.
     */
    private static Map<String, Object> measureOrder(Form form, Wrk wrk, DaemonProcess plain, DaemonProcess ordered,
                                                    Connection admin, int seconds, int rounds) throws Exception {
        System.out.printf("%n%s, events each about an object of its own: default against ORDER=key%n", form.name());
        for (DaemonProcess d : OrderRounds.warmUpOrder(plain, ordered)) {
            System.out.println("warm-up " + wrk.run(d.host(), d.port(), Math.min(20, seconds)).summary());
            awaitSettled(d, form);
        }
        return OrderRounds.compare(form.name(), "events/s", "event", plain, ordered, rounds, d -> {
            JetsinkRound j = jetsinkRound(form, wrk, d, admin, seconds);
            return new OrderRounds.Round(j.eventsPerSecond, j.cpuMicrosPerEvent, j.pressure);
        });
    }

    private record JetsinkRound(double eventsPerSecond, double cpuMicrosPerEvent, double pressure, double requestP99Ms) {
    }

    private static JetsinkRound jetsinkRound(Form form, Wrk wrk, DaemonProcess daemon, Connection admin, int seconds)
        throws Exception {
        long storedBefore = Streams.state(admin, form.stream()).getMsgCount();
        long acceptedBefore = (long) daemon.metric(form.accepted());
        CpuPressure pressureBefore = CpuPressure.sample();
        double cpuBefore = daemon.cpuSeconds();
        long start = System.nanoTime();
        Wrk.Result w = wrk.run(daemon.host(), daemon.port(), seconds);
        double wall = (awaitSettled(daemon, form) - start) / 1e9;
        double cpu = daemon.cpuSeconds() - cpuBefore;
        double pressure = CpuPressure.sample().percentSince(pressureBefore).orElse(-1);
        long stored = Streams.state(admin, form.stream()).getMsgCount() - storedBefore;
        long accepted = (long) daemon.metric(form.accepted()) - acceptedBefore;
        long per = form.shape().perRequest();
        // wrk leaves at most one answer per connection unread at its deadline
        if (stored != accepted || accepted < w.ok() * per || accepted > (w.ok() + wrk.connections()) * per) {
            throw new IllegalStateException(form.name() + ": wrk 2xx " + w.ok() + " requests of " + per + " events, daemon "
                + "accepted " + accepted + ", stream gained " + stored);
        }
        double eps = stored / wall;
        double cpuMicros = cpu * 1e6 / Math.max(1, stored);
        System.out.printf("  jetsink %s; %d events stored in %.1f s = %.0f events/s, daemon CPU %.1f us per event, %s%n",
            w.summary(), stored, wall, eps, cpuMicros, pressure < 0 ? "cpu pressure n/a" : "cpu pressure " + pressure + " %");
        return new JetsinkRound(eps, cpuMicros, pressure, w.p99Ms());
    }

    /**
     * Waits (at most 3 minutes) until the daemon's queue of that kind is empty and its accepted
     * count has stopped moving: requests wrk left in flight at its deadline are still parsed and
     * queued after the queue first reads empty, and must land in this round, not the next.
     */
    /** When the daemon's intake for {@code form} last moved, once it has settled ({@link DaemonProcess#awaitSettled}). */
    private static long awaitSettled(DaemonProcess daemon, Form form) throws Exception {
        return daemon.awaitSettled(form.accepted(), form.queueLength());
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = BatchBench.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " missing from the bench classpath");
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip()
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}

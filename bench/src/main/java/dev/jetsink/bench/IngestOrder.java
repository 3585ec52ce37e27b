package dev.jetsink.bench;

import io.nats.client.Connection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One event per POST with {@code ORDER=key} beside the default (docs/BENCHMARKS.md "What order per
 * object costs"): a second daemon whose notify target orders by object, both sent the same
 * requests, each event about an object of its own (the ordered mode's fair case; the ingest
 * bench's own requests all name one object), in alternated rounds after a warm-up of each.
 */
final class IngestOrder {

    private IngestOrder() {
    }

    static Map<String, Object> measure(Path jar, String natsUrl, Connection admin, DaemonProcess plain, Path wrkBinary,
                                       byte[] body, Path work, int seconds, int rounds) throws Exception {
        Wrk wrk = Wrk.posting(wrkBinary, Wrk.notifySpread(body, 1), Wrk.CONNECTIONS,
            Files.createDirectories(work.resolve("wrk-spread")));
        try (DaemonProcess ordered = DaemonProcess.start(jar, natsUrl, IngestBench.STREAM, IngestBench.SUBJECT,
            Files.createDirectories(work.resolve("queue-ordered")), List.of(), Map.of("RUSTFS_NOTIFY_NATS_ORDER", "key"))) {
            System.out.printf("%none event per POST, each about an object of its own: default against ORDER=key%n");
            for (DaemonProcess d : List.of(plain, ordered)) {
                System.out.println("warm-up " + wrk.run(d.host(), d.port(), Math.min(20, seconds)).summary());
                IngestBench.awaitDrained(d);
            }
            List<Double> plainRps = new ArrayList<>();
            List<Double> orderedRps = new ArrayList<>();
            List<Double> plainCpu = new ArrayList<>();
            List<Double> orderedCpu = new ArrayList<>();
            List<Double> pressure = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                for (boolean plainTurn : round % 2 == 0 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                    IngestBench.JetsinkRun run = IngestBench.jetsink(plainTurn ? plain : ordered, admin, wrk, seconds, null);
                    (plainTurn ? plainRps : orderedRps).add(run.rps());
                    (plainTurn ? plainCpu : orderedCpu).add(run.cpuMicros());
                    pressure.add(run.pressure());
                }
            }
            List<Double> ratio = Spread.ratios(orderedRps, plainRps);
            System.out.printf("one event per POST: ORDER=key %s requests/s, default %s, ratio %s (goal >= 0.9); CPU per request"
                    + " %s against %s us%n", Spread.text(orderedRps, "%.0f"), Spread.text(plainRps, "%.0f"),
                Spread.text(ratio, "%.2f"), Spread.text(orderedCpu, "%.1f"), Spread.text(plainCpu, "%.1f"));
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("default_rps", Spread.of(plainRps, 0));
            r.put("ordered_rps", Spread.of(orderedRps, 0));
            r.put("ratio_ordered_vs_default", Spread.of(ratio, 2));
            r.put("default_cpu_us_per_request", Spread.of(plainCpu, 1));
            r.put("ordered_cpu_us_per_request", Spread.of(orderedCpu, 1));
            r.put("cpu_pressure_pct", Spread.of(pressure, 1));
            return r;
        }
    }
}

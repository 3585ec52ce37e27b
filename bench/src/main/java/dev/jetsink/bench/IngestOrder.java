package dev.jetsink.bench;

import io.nats.client.Connection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One event per POST with {@code ORDER=key} beside the default (docs/BENCHMARKS.md "What order per
 * object costs"): a second daemon whose notify target orders by object, both sent the same
 * requests, each event about an object of its own (the ordered mode's fair case; the ingest
 * bench's own requests all name one object), in alternated rounds after two warm-ups of each; a
 * daemon of each kind started for it.
 */
final class IngestOrder {

    private IngestOrder() {
    }

    static Map<String, Object> measure(Path jar, String natsUrl, Connection admin, Path wrkBinary,
                                       byte[] body, Path work, int seconds, int rounds) throws Exception {
        Wrk wrk = Wrk.posting(wrkBinary, Wrk.notifySpread(body, 1), Wrk.CONNECTIONS,
            Files.createDirectories(work.resolve("wrk-spread")));
        // both daemons started for this: the same JIT history (OrderRounds.warmUpOrder)
        try (DaemonProcess plain = DaemonProcess.start(jar, natsUrl, IngestBench.STREAM, IngestBench.SUBJECT,
                 Files.createDirectories(work.resolve("queue-plain")), List.of());
             DaemonProcess ordered = DaemonProcess.start(jar, natsUrl, IngestBench.STREAM, IngestBench.SUBJECT,
                 Files.createDirectories(work.resolve("queue-ordered")), List.of(), Map.of("RUSTFS_NOTIFY_NATS_ORDER", "key"))) {
            System.out.printf("%none event per POST, each about an object of its own: default against ORDER=key%n");
            for (DaemonProcess d : OrderRounds.warmUpOrder(plain, ordered)) {
                System.out.println("warm-up " + wrk.run(d.host(), d.port(), Math.min(20, seconds)).summary());
                IngestBench.awaitDrained(d);
            }
            return OrderRounds.compare("one event per POST", "requests/s", "request", plain, ordered, rounds, d -> {
                IngestBench.JetsinkRun run = IngestBench.jetsink(d, admin, wrk, seconds, null);
                return new OrderRounds.Round(run.rps(), run.cpuMicros(), run.pressure());
            });
        }
    }
}

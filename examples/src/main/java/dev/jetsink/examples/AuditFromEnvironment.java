package dev.jetsink.examples;

import dev.jetsink.Delivery;
import dev.jetsink.Jetsink;
import dev.jetsink.Receipt;
import dev.jetsink.Sink;
import dev.jetsink.SinkStatus;
import dev.jetsink.event.AuditEntry;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;

/**
 * Audit log entries through a sink configured exactly like the daemon, from the
 * {@code RUSTFS_AUDIT_NATS_*} keys of the environment (for example
 * {@code RUSTFS_AUDIT_NATS_ADDRESS}, {@code _SUBJECT}, {@code _QUEUE_DIR}, {@code _JETSTREAM_*}).
 */
public final class AuditFromEnvironment {

    private AuditFromEnvironment() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(System.getenv(), System.out));
    }

    /** Sends three audit entries with the configuration in {@code env}; 0 when all were delivered. */
    static int run(Map<String, String> env, PrintStream out) throws Exception {
        try (Sink<AuditEntry> sink = Jetsink.auditFromEnvironment(env).build()) {
            sink.awaitReady(Duration.ofSeconds(30));   // a wrong address or an unsuitable stream fails here
            for (String api : new String[] {"PutObject", "GetObject", "DeleteObject"}) {
                AuditEntry entry = AuditEntry.builder(api).bucket("photos").object("cat.jpg")
                    .status("OK", 200).build();
                Receipt receipt = sink.send(entry).join();
                Delivery d = receipt.delivered().join();
                out.println(api + " delivered as " + d.stream() + "#" + d.streamSeq());
            }
            SinkStatus status = sink.status();
            out.println("target " + sink.target() + ": " + status.health().label() + ", " + status.state().label()
                + ", queue " + status.queueLength());
            return status.queueLength() == 0 ? 0 : 1;
        }
    }
}

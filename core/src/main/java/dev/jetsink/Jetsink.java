package dev.jetsink;

import dev.jetsink.event.AuditEntry;
import dev.jetsink.event.S3EventRecord;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.Envelopes;
import java.util.Map;

/**
 * Where an embedder starts: a {@link Sink} for S3 bucket notifications or for audit log entries.
 *
 * <pre>{@code
 * try (Sink<S3EventRecord> sink = Jetsink.notifySink()
 *         .servers("nats://127.0.0.1:4222")
 *         .subject("s3.events")
 *         .jetStream("S3_EVENTS")
 *         .queueDir(Path.of("/var/lib/myapp/jetsink"))
 *         .build()) {
 *     S3EventRecord event = S3EventRecord.builder("s3:ObjectCreated:Put", "photos", "cat.jpg").build();
 *     Receipt receipt = sink.send(event).join();          // durable in the local queue
 *     Delivery delivery = receipt.delivered().join();      // acknowledged by the stream
 * }
 * }</pre>
 */
public final class Jetsink {

    private Jetsink() {
    }

    /**
     * A sink for S3 bucket notifications (published in the webhook envelope).
     *
     * @return a builder; set at least the servers, the subject and the queue directory
     */
    public static SinkBuilder<S3EventRecord> notifySink() {
        return new SinkBuilder<>(TargetKind.NOTIFY, Envelopes::notify, Map.of());
    }

    /**
     * A sink for audit log entries.
     *
     * @return a builder; set at least the servers, the subject and the queue directory
     */
    public static SinkBuilder<AuditEntry> auditSink() {
        return new SinkBuilder<>(TargetKind.AUDIT, Envelopes::audit, Map.of());
    }

    /**
     * A notify sink configured from jetsink's configuration keys ({@code RUSTFS_NOTIFY_NATS_*}, as
     * listed in the operations guide), e.g. {@code System.getenv()}; the builder's setters may
     * add to it. Exactly one notify target must
     * be enabled.
     *
     * @param env variables by name
     * @return a builder holding them
     */
    public static SinkBuilder<S3EventRecord> notifyFromEnvironment(Map<String, String> env) {
        return new SinkBuilder<>(TargetKind.NOTIFY, Envelopes::notify, env);
    }

    /**
     * An audit sink configured from jetsink's configuration keys ({@code RUSTFS_AUDIT_NATS_*}).
     *
     * @param env variables by name
     * @return a builder holding them
     */
    public static SinkBuilder<AuditEntry> auditFromEnvironment(Map<String, String> env) {
        return new SinkBuilder<>(TargetKind.AUDIT, Envelopes::audit, env);
    }
}

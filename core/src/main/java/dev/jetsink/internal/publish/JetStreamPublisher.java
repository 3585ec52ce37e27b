package dev.jetsink.internal.publish;

import dev.jetsink.PayloadFormat;
import dev.jetsink.internal.nats.Classified;
import dev.jetsink.internal.nats.ConnectFailedException;
import dev.jetsink.internal.nats.OutcomeClassifier;
import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.internal.time.Deadline;
import dev.jetsink.lifecycle.Outcome;
import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.PublishOptions;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The JetStream path (DESIGN.md "Delivery"): {@code publishAsync} with the entry's
 * {@code Nats-Msg-Id} and {@code expectedStream}, each future bounded by what is left of the
 * attempt deadline, success only for a PubAck from the configured stream. A duplicate ack of an
 * entry that carries a {@code Jetsink-Sequence} also reads back the stored copy's number
 * ({@link StoredNumbers}).
 */
public final class JetStreamPublisher implements Publisher {

    private final TargetConnection link;
    private final StreamCheck check;
    private final OutcomeClassifier classifier;
    private final EntrySubjects subjects;
    private final String stream;
    private final Set<CompletableFuture<Delivered>> open = ConcurrentHashMap.newKeySet();
    private final StoredNumbers storedNumbers;
    private Connection contextOf;
    private JetStream context;

    private final PayloadFormat format;
    private final Tracing tracing;
    private final String target;

    public JetStreamPublisher(TargetConnection link, StreamCheck check, OutcomeClassifier classifier, EntrySubjects subjects,
                       PayloadFormat format, Tracing tracing, String target) {
        this.format = format;
        this.tracing = tracing;
        this.target = target;
        this.link = link;
        this.check = check;
        this.classifier = classifier;
        this.subjects = subjects;
        this.stream = check.stream();
        this.storedNumbers = new StoredNumbers(check.api().options().getPrefix(), stream, target);
    }

    @Override
    public void prepare(Deadline deadline) throws Exception {
        Connection c = link.await(deadline);
        check.ensure(c, deadline);
    }

    @Override
    public CompletableFuture<Delivered> publish(QueuedEntry entry, long keySequence, byte[] payload, Deadline deadline) throws IOException {
        Connection c = link.current().orElseThrow(() -> new ConnectFailedException(
            ConnectFailedException.Reason.UNREACHABLE, "connection is down", null));
        long remainingNanos = deadline.remaining().toNanos();
        PublishOptions options = PublishOptions.builder()
            .messageId(entry.msgId())
            .expectedStream(stream)
            .streamTimeout(deadline.remaining())
            .build();
        QueuedEntry e = entry;
        String to = subjects.of(e);
        Tracing.Span span = tracing.publish(target, to, e.msgId(), e.attributes().traceparent(), e.attributes().tracestate());
        // Throws at once for a payload over max_payload or a closed connection: nothing is open then.
        CompletableFuture<io.nats.client.api.PublishAck> sent;
        try {
            sent = jetStream(c).publishAsync(to, MessageHeaders.of(format, e.metadata(), e.attributes(), span, keySequence), payload, options);
        } catch (IOException | RuntimeException failure) {
            span.end(failure);
            throw failure;
        }
        CompletableFuture<Delivered> out = new CompletableFuture<>();
        open.add(out);
        sent.orTimeout(remainingNanos, TimeUnit.NANOSECONDS)
            .whenComplete((ack, failure) -> {
                open.remove(out);
                span.end(failure);
                if (failure != null) {
                    out.completeExceptionally(failure);
                    return;
                }
                var mismatch = classifier.checkAck(ack);
                if (mismatch.isPresent()) {
                    out.completeExceptionally(new OutcomeException(mismatch.get()));
                } else if (ack.isDuplicate() && keySequence > 0) {
                    // which number the stored copy has: this entry's (an earlier attempt stored it) or another's
                    storedNumbers.of(c, ack.getSeqno(), e.msgId(), deadline.remaining()).handle(
                        (number, failed) -> out.complete(new Delivered(true, ack.getStream(), ack.getSeqno(),
                            failed == null ? number : Delivered.UNKNOWN)));
                } else {
                    out.complete(new Delivered(ack.isDuplicate(), ack.getStream(), ack.getSeqno()));
                }
            });
        return out;
    }

    private JetStream jetStream(Connection c) throws IOException {
        if (c != contextOf) {
            context = c.jetStream(check.api().options());
            contextOf = c;
        }
        return context;
    }

    @Override
    public void endFill(Deadline deadline) {
        // publishAsync writes as it goes; nothing to flush
    }

    @Override
    public void abandonInFlight() {
        // jnats keeps these waiting through a reconnect; the same ids are retried instead
        // (DESIGN.md "Msg ids")
        for (CompletableFuture<Delivered> f : open) {
            f.completeExceptionally(new OutcomeException(Classified.transientOf(Outcome.Cause.CONNECTION_LOST)));
        }
    }

    @Override
    public void close() {
        abandonInFlight();
    }
}

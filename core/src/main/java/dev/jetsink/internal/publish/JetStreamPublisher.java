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
import io.nats.client.JetStreamApiException;
import io.nats.client.PublishOptions;
import io.nats.client.impl.Headers;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JetStream path (DESIGN.md "Delivery"): {@code publishAsync} with the entry's
 * {@code Nats-Msg-Id} and {@code expectedStream}, each future bounded by what is left of the
 * attempt deadline, success only for a PubAck from the configured stream. A duplicate ack of an
 * entry that carries a {@code Jetsink-Sequence} also reads back the stored copy's number
 * ({@link StoredCopies}); an ordered target whose subjects name objects guards each publish with
 * the object's last stream sequence ({@link ObjectSubjects}).
 */
public final class JetStreamPublisher implements Publisher {
    private static final Logger log = LoggerFactory.getLogger(JetStreamPublisher.class);
    private static final int WRONG_LAST_SEQUENCE = 10071;

    private final TargetConnection link;
    private final StreamCheck check;
    private final OutcomeClassifier classifier;
    private final EntrySubjects subjects;
    private final String stream;
    private final Set<CompletableFuture<Delivered>> open = ConcurrentHashMap.newKeySet();
    private final StoredCopies copies;
    /** Null unless the target is ordered and its subjects can name objects. */
    private final ObjectSubjects objects;
    private final SubjectRefusals refusals;
    private Connection contextOf;
    private JetStream context;

    private final PayloadFormat format;
    private final Tracing tracing;
    private final String target;

    public JetStreamPublisher(TargetConnection link, StreamCheck check, OutcomeClassifier classifier, EntrySubjects subjects,
                       PayloadFormat format, Tracing tracing, String target, boolean ordered, SubjectRefusals refusals) {
        this.format = format;
        this.tracing = tracing;
        this.target = target;
        this.link = link;
        this.check = check;
        this.classifier = classifier;
        this.subjects = subjects;
        this.stream = check.stream();
        this.copies = new StoredCopies(check.api().options().getPrefix(), stream, target);
        this.objects = ObjectSubjects.of(ordered, subjects).orElse(null);
        this.refusals = refusals;
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
        Publish p = new Publish(c, entry, subjects.of(entry), keySequence, payload, deadline);
        Tracing.Span span = tracing.publish(target, p.to, entry.msgId(), entry.attributes().traceparent(), entry.attributes().tracestate());
        // Throws at once for a payload over max_payload or a closed connection: nothing is open then.
        CompletableFuture<io.nats.client.api.PublishAck> sent;
        try {
            sent = p.send(span, p.guarded ? objects.expected(p.to) : -1);
        } catch (IOException | RuntimeException failure) {
            span.end(failure);
            throw failure;
        }
        open.add(p.out);
        p.out.whenComplete((d, failure) -> {
            open.remove(p.out);
            span.end(failure);
        });
        sent.whenComplete((ack, failure) -> p.answered(ack, failure, span, true));
        return p.out;
    }

    /** One entry's publish: a send, and on the guarded path the answer to a refusal. */
    private final class Publish {
        final Connection c;
        final QueuedEntry e;
        final String to;
        final long keySequence;
        final byte[] payload;
        final Deadline deadline;
        /** Whether its subject is its object's alone: it carries {@value ObjectSubjects#HEADER}. */
        final boolean guarded;
        final CompletableFuture<Delivered> out = new CompletableFuture<>();

        Publish(Connection c, QueuedEntry e, String to, long keySequence, byte[] payload, Deadline deadline) {
            this.c = c;
            this.e = e;
            this.to = to;
            this.keySequence = keySequence;
            this.payload = payload;
            this.deadline = deadline;
            this.guarded = objects != null && objects.guards(e, to);
        }

        /** Sends it, expecting {@code expected} last on its subject when not negative. */
        CompletableFuture<io.nats.client.api.PublishAck> send(Tracing.Span span, long expected) throws IOException {
            long remainingNanos = deadline.remaining().toNanos();
            PublishOptions options = PublishOptions.builder()
                .messageId(e.msgId())
                .expectedStream(stream)
                .streamTimeout(deadline.remaining())
                .build();
            Headers h = MessageHeaders.of(format, e.metadata(), e.attributes(), span, keySequence);
            if (expected >= 0) {
                h.put(ObjectSubjects.HEADER, Long.toString(expected));
            }
            return jetStream(c).publishAsync(to, h, payload, options).orTimeout(remainingNanos, TimeUnit.NANOSECONDS);
        }

        void answered(io.nats.client.api.PublishAck ack, Throwable failure, Tracing.Span span, boolean mayResend) {
            if (failure != null) {
                Optional<JetStreamApiException> refused = guarded ? refusal(failure) : Optional.empty();
                if (refused.isPresent()) {
                    resolveRefusal(refused.get(), span, mayResend);
                } else {
                    out.completeExceptionally(failure);
                }
                return;
            }
            var mismatch = classifier.checkAck(ack);
            if (mismatch.isPresent()) {
                out.completeExceptionally(new OutcomeException(mismatch.get()));
                return;
            }
            if (guarded) {
                objects.seen(to, ack.getSeqno(), false);
            }
            if (ack.isDuplicate() && keySequence > 0) {
                // which number the stored copy has: this entry's (an earlier attempt stored it) or another's
                copies.numberOf(c, ack.getSeqno(), e.msgId(), deadline.remaining()).handle(
                    (number, failed) -> out.complete(new Delivered(true, ack.getStream(), ack.getSeqno(),
                        failed == null ? number : Delivered.UNKNOWN)));
            } else {
                out.complete(new Delivered(ack.isDuplicate(), ack.getStream(), ack.getSeqno()));
            }
        }

        /**
         * The stream refused the publish: its subject's last message is not the one expected. That
         * message is this entry's own copy (an earlier attempt stored it, its ack lost): delivered,
         * as a duplicate. Another's (the object's messages from before this process, or another
         * publisher's): sent once more, after it.
         */
        private void resolveRefusal(JetStreamApiException refused, Tracing.Span span, boolean mayResend) {
            copies.lastOn(c, to, deadline.remaining()).whenComplete((copy, failed) -> {
                long last;
                if (failed == null) {
                    objects.seen(to, copy.streamSeq(), true);
                    boolean own = e.msgId().equals(copy.msgId());
                    refusals.add(own ? SubjectRefusals.Last.OWN_COPY : SubjectRefusals.Last.ANOTHER);
                    if (own) {
                        out.complete(new Delivered(true, stream, copy.streamSeq(), keySequence > 0 ? copy.number() : Delivered.UNKNOWN));
                        return;
                    }
                    last = copy.streamSeq();
                } else {
                    refusals.add(SubjectRefusals.Last.UNREAD);
                    last = lastNamedIn(refused);
                    log.warn("target=\"{}\" subject={} the stream refused a publish for its {} and the subject's last"
                        + " message could not be read ({}): sent again after seq {} unchecked; the target's user must be"
                        + " allowed to publish to {}", target, to, ObjectSubjects.HEADER, StoredCopies.reason(failed), last,
                        copies.request());
                }
                if (out.isDone()) {
                    return; // abandoned meanwhile (the connection dropped): the dispatcher publishes it again
                }
                if (!mayResend || last < 0) {
                    out.completeExceptionally(new OutcomeException(Classified.onlyThisEntry(Outcome.Cause.WRONG_LAST_SEQUENCE,
                        "another message was stored on the object's subject " + to + " while this one was published"
                            + " (last seq " + last + "): is another publisher writing it?")));
                    return;
                }
                try {
                    send(span, last).whenComplete((ack, again) -> answered(ack, again, span, false));
                } catch (IOException | RuntimeException f) {
                    out.completeExceptionally(f);
                }
            });
        }
    }

    /** The refusal for a wrong last subject sequence in {@code failure}, if it is one. */
    private static Optional<JetStreamApiException> refusal(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof JetStreamApiException api && api.getApiErrorCode() == WRONG_LAST_SEQUENCE) {
                return Optional.of(api);
            }
        }
        return Optional.empty();
    }

    /** The subject's last sequence a refusal names ("wrong last sequence: 12"); -1 when it names none. */
    private static long lastNamedIn(JetStreamApiException refused) {
        String text = String.valueOf(refused.getErrorDescription());
        int colon = text.lastIndexOf(':');
        try {
            return colon < 0 ? -1 : Long.parseLong(text.substring(colon + 1).trim());
        } catch (NumberFormatException e) {
            return -1;
        }
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

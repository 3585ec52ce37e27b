package dev.jetsink.target;

import dev.jetsink.event.OutboundEvent;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The library's typed entry point for one kind of target: turns a typed event into its published
 * envelope and queues it on every target of the kind. {@link NotifyTargets} and
 * {@link AuditTargets} only fix the event type and the envelope.
 *
 * @param <E> the event type a store hands over
 */
public class TypedTargets<E> implements AutoCloseable {

    private final Targets targets;
    private final Function<E, OutboundEvent> envelope;

    TypedTargets(Targets targets, Function<E, OutboundEvent> envelope) {
        this.targets = Objects.requireNonNull(targets, "targets");
        this.envelope = Objects.requireNonNull(envelope, "envelope");
    }

    /** Completes when every target of this kind has durably queued the event (SPEC §3.1). */
    public CompletableFuture<Void> send(E event) {
        return targets.send(envelope.apply(event));
    }

    /**
     * Like {@link #send(Object)}, with the caller's own {@code Nats-Msg-Id} for the event on every
     * target (see {@link OutboundEvent#withMsgId}): for an embedder whose events carry their own
     * identity, so that sending one again after a crash stores it once.
     *
     * @throws IllegalArgumentException when {@code msgId} is not 1 to 128 printable ASCII characters without spaces
     */
    public CompletableFuture<Void> send(E event, String msgId) {
        return targets.send(envelope.apply(event).withMsgId(msgId));
    }

    public Targets targets() {
        return targets;
    }

    /** Stops every target, giving in-flight publishes up to {@code grace}; queued entries stay. */
    public void close(Duration grace) {
        targets.close(grace);
    }

    @Override
    public void close() {
        targets.close();
    }
}

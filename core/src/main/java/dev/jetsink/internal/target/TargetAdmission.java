package dev.jetsink.internal.target;

import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.queue.EntryAttributes;
import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.internal.queue.Reservation;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Room held on one target for an all-or-nothing ingest (DESIGN.md "Daemon"): the HTTP ingest admits
 * a request on every addressed target first, and only when all of them have room appends the
 * events. Obtained from {@link NatsTarget#admit(int)}; {@link #close} gives back the room not used.
 * A target without a queue dir holds no room: its appends publish directly (Core path only).
 */
public final class TargetAdmission implements AutoCloseable {

    private final Optional<Reservation> reservation;
    private final Function<OutboundEvent, Optional<String>> msgIdOf;
    private final Function<OutboundEvent, Tracing.Span> spanOf;
    private final BiFunction<OutboundEvent, Tracing.Span, EntryAttributes> attributesOf;
    private final Consumer<QueuedEntry> onQueued;
    private final Runnable onRefused;
    private final Function<OutboundEvent, CompletableFuture<Void>> direct;

    private TargetAdmission(Optional<Reservation> reservation, Function<OutboundEvent, Optional<String>> msgIdOf,
                            Function<OutboundEvent, Tracing.Span> spanOf,
                            BiFunction<OutboundEvent, Tracing.Span, EntryAttributes> attributesOf,
                            Consumer<QueuedEntry> onQueued, Runnable onRefused,
                            Function<OutboundEvent, CompletableFuture<Void>> direct) {
        this.reservation = reservation;
        this.msgIdOf = msgIdOf;
        this.spanOf = spanOf;
        this.attributesOf = attributesOf;
        this.onQueued = onQueued;
        this.onRefused = onRefused;
        this.direct = direct;
    }

    /** {@code onRefused} runs once for each append whose write or fsync failed. */
    static TargetAdmission queued(Reservation reservation, Function<OutboundEvent, Optional<String>> msgIdOf,
                                  Function<OutboundEvent, Tracing.Span> spanOf,
                                  BiFunction<OutboundEvent, Tracing.Span, EntryAttributes> attributesOf,
                                  Consumer<QueuedEntry> onQueued, Runnable onRefused) {
        return new TargetAdmission(Optional.of(reservation), msgIdOf, spanOf, attributesOf, onQueued, onRefused, e -> {
            throw new IllegalStateException("a queued admission never publishes directly");
        });
    }

    static TargetAdmission direct(Function<OutboundEvent, CompletableFuture<Void>> publish) {
        return new TargetAdmission(Optional.empty(), e -> Optional.empty(), e -> Tracing.Span.NONE,
            (e, span) -> EntryAttributes.NONE, entry -> { },
            () -> { }, publish);
    }

    /**
     * Appends one event using an admitted slot. Completes once the event is durably queued (the
     * target's dispatcher is woken and {@code total_messages} counts it); fails with the I/O error
     * of the write or fsync, which counts as an ingest rejection of the target. Never throws: every failure is in the returned future.
     */
    public CompletableFuture<Void> append(OutboundEvent event) {
        if (reservation.isEmpty()) {
            return direct.apply(event);
        }
        CompletableFuture<QueuedEntry> appended;
        Tracing.Span span = spanOf.apply(event);
        try {
            appended = reservation.get().append(event.metadata(), event.payload(), msgIdOf.apply(event),
                attributesOf.apply(event, span));
        } catch (RuntimeException e) {
            span.end(e);
            onRefused.run();
            return CompletableFuture.failedFuture(e);
        }
        return appended.whenComplete((entry, failure) -> {
            span.end(failure);
            if (failure != null) {
                onRefused.run();
            }
        }).thenAccept(onQueued);
    }

    /** Gives back the slots not used. Idempotent. */
    @Override
    public void close() {
        reservation.ifPresent(Reservation::close);
    }
}

package dev.jetsink.internal.targets;

import dev.jetsink.internal.delivery.Dispatcher;
import dev.jetsink.internal.delivery.OutcomeHandling;
import dev.jetsink.internal.publish.Publisher;
import dev.jetsink.internal.publish.TargetConnection;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.LifecycleListener;
import dev.jetsink.lifecycle.ResetReason;
import java.util.Optional;

/**
 * What a target does on connection events: the verdict resets (DESIGN.md "Stream validation and
 * verdict"), a probe waiting out a backoff wakes early, publishes in flight fail as transient on a
 * disconnect, and each change is a lifecycle event.
 */
final class TargetConnectionHooks implements TargetConnection.Hooks {
    private final String target;
    private final LifecycleListener events;
    // set once by attach, before the connection is first made (at the target's start)
    private volatile OutcomeHandling outcomes;
    private volatile Optional<Publisher> publisher = Optional.empty();
    private volatile Optional<Dispatcher> dispatcher = Optional.empty();

    TargetConnectionHooks(String target, LifecycleListener events) {
        this.target = target;
        this.events = events;
    }

    /** The parts made after the connection: they depend on it, and it calls back into them. */
    void attach(OutcomeHandling outcomes, Optional<Publisher> publisher, Optional<Dispatcher> dispatcher) {
        this.outcomes = outcomes;
        this.publisher = publisher;
        this.dispatcher = dispatcher;
    }

    @Override
    public void connected(boolean reconnect) {
        outcomes.reset(reconnect ? ResetReason.RECONNECTED : ResetReason.NEW_CONNECTION);
        changed(reconnect ? LifecycleEvent.ConnectionEvent.RECONNECTED : LifecycleEvent.ConnectionEvent.CONNECTED);
        dispatcher.ifPresent(Dispatcher::wakeProbe);
    }

    @Override
    public void disconnected() {
        publisher.ifPresent(Publisher::abandonInFlight);
        changed(LifecycleEvent.ConnectionEvent.DISCONNECTED);
    }

    @Override
    public void closed() {
        changed(LifecycleEvent.ConnectionEvent.CLOSED);
    }

    @Override
    public void tlsRotated() {
        outcomes.reset(ResetReason.TLS_ROTATED);
    }

    private void changed(LifecycleEvent.ConnectionEvent event) {
        events.connectionChanged(new LifecycleEvent.ConnectionChanged(target, event));
    }
}

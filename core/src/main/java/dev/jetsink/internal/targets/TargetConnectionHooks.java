package dev.jetsink.internal.targets;

import dev.jetsink.internal.delivery.Dispatcher;
import dev.jetsink.internal.delivery.OutcomeHandling;
import dev.jetsink.internal.nats.ConnectFailedException;
import dev.jetsink.internal.publish.Publisher;
import dev.jetsink.internal.publish.TargetConnection;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.LifecycleListener;
import dev.jetsink.lifecycle.ResetReason;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a target does on connection events: the verdict resets (DESIGN.md "Stream validation and
 * verdict"), a probe waiting out a backoff wakes early, publishes in flight fail as transient on a
 * disconnect, each change is a lifecycle event, and a failed connect is logged once per reason.
 */
final class TargetConnectionHooks implements TargetConnection.Hooks {
    private static final Logger log = LoggerFactory.getLogger(TargetConnectionHooks.class);
    private final String target;
    /** The reason last logged for a failed connect; cleared by a connection, so the next failure is logged again. */
    private volatile ConnectFailedException.Reason loggedFailure;
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
        loggedFailure = null;
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

    // Attempts repeat at every backoff; the same reason again adds nothing an operator needs.
    @Override
    public void connectFailed(ConnectFailedException failure) {
        if (failure.reason() == loggedFailure) {
            return;
        }
        loggedFailure = failure.reason();
        if (failure.reason() == ConnectFailedException.Reason.AUTHENTICATION) {
            log.warn("NATS authentication failed target=\"{}\" error=\"{}\"", target, failure.getMessage());
        } else {
            log.warn("NATS connect failed target=\"{}\" reason={} error=\"{}\"", target,
                failure.reason().name().toLowerCase(java.util.Locale.ROOT), failure.getMessage());
        }
    }

    @Override
    public void tlsRotated() {
        outcomes.reset(ResetReason.TLS_ROTATED);
    }

    private void changed(LifecycleEvent.ConnectionEvent event) {
        events.connectionChanged(new LifecycleEvent.ConnectionChanged(target, event));
    }
}

package dev.jetsink.internal.delivery;

import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.LifecycleListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log lines of delivery (OPERATIONS.md section 9 quotes them): one warning per exhausted cycle,
 * probe mode and connection changes at info or warn, individual failed attempts only at debug so an
 * outage is visible without per-attempt noise.
 */
public final class DeliveryLog implements LifecycleListener {

    private static final Logger log = LoggerFactory.getLogger("dev.jetsink.delivery");

    @Override
    public void cycleExhausted(LifecycleEvent.CycleExhausted e) {
        log.warn("retry budget exhausted, entry stays queued and retries target=\"{}\" msg_id={} cycle={} attempts={} "
            + "last_error=\"{}\"", e.target(), e.msgId(), e.cycle(), e.lifetimeAttempts(), e.lastError());
    }

    @Override
    public void probeModeEntered(LifecycleEvent.ProbeModeEntered e) {
        log.info("delivery paused, probing with one entry target=\"{}\" probe_msg_id={}", e.target(), e.probeMsgId());
    }

    @Override
    public void probeModeLeft(LifecycleEvent.ProbeModeLeft e) {
        log.info("delivery resumed target=\"{}\"", e.target());
    }

    @Override
    public void connectionChanged(LifecycleEvent.ConnectionChanged e) {
        switch (e.event()) {
            case DISCONNECTED -> log.warn("NATS connection {} target=\"{}\"", e.event().name().toLowerCase(), e.target());
            default -> log.info("NATS connection {} target=\"{}\"", e.event().name().toLowerCase(), e.target());
        }
    }

    @Override
    public void attemptFailed(LifecycleEvent.AttemptFailed e) {
        log.debug("publish attempt failed target=\"{}\" msg_id={} attempt={} family={} error=\"{}\"",
            e.target(), e.msgId(), e.attemptInCycle(), e.outcome().family(), e.outcome().detail());
    }
}

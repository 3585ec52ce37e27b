package dev.jetsink;

import java.util.Optional;

/**
 * A sink's target now: the daemon's {@code /health} and {@code /status} for one target.
 *
 * @param health          {@code online}, {@code offline} or {@code error}, as in {@code /health}
 * @param healthReason    why, when not online
 * @param state           {@code delivering}, {@code idle}, {@code stalled}, {@code failing} or {@code degraded}
 * @param queueLength     events queued and not yet delivered
 * @param verdict         the stream verdict: {@code PASS}, {@code FAIL} or {@code UNSET}
 * @param lastError       the last publish or queue error
 * @param connectedServer the NATS server connected to
 */
public record SinkStatus(String health, String healthReason, String state, long queueLength, String verdict,
                         Optional<String> lastError, Optional<String> connectedServer) {
}

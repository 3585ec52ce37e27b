package dev.jetsink.internal.targets;

import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.nats.ConnectFailedException;
import dev.jetsink.internal.nats.ConnectionFactory;
import dev.jetsink.internal.nats.ConnectionSettings;
import dev.jetsink.internal.nats.OutcomeClassifier;
import dev.jetsink.internal.nats.ValidationResult;
import dev.jetsink.internal.nats.Verdict;
import dev.jetsink.internal.publish.StreamCheck;
import dev.jetsink.internal.time.Deadline;
import dev.jetsink.lifecycle.LifecycleListener;
import io.nats.client.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeoutException;

/**
 * A one-off check that a target configuration works before it is applied (the admin validation
 * path, DESIGN.md "Admin API", and {@code check-config --connect}): connect with the target's own
 * settings and, on the JetStream path, run the stream validation, on the Core path a flush round
 * trip, all within one bound. It opens no queue and touches no running target;
 * its connection is closed before it returns.
 */
public final class TargetProbe {

    private TargetProbe() {
    }

    /** What the probe found. */
    public sealed interface Result permits Result.Reachable, Result.Refused {

        /**
         * The server answered and (JetStream) the stream passed; {@code advice} is what a passing
         * validation logs as warnings.
         *
         * @param serverVersion the version the server announced, e.g. {@code 2.15.1}
         */
        record Reachable(String serverVersion, List<String> advice) implements Result {
            public Reachable {
                Objects.requireNonNull(serverVersion, "serverVersion");
                advice = List.copyOf(advice);
            }
        }

        /**
         * The target would not work: no connection, or a stream that fails validation.
         *
         * @param reason an operator-facing text free of secrets
         * @param sealed true when the stream is sealed (a target on it would fail init)
         */
        record Refused(String reason, boolean sealed) implements Result {
            public Refused {
                Objects.requireNonNull(reason, "reason");
            }
        }
    }

    /**
     * Connects and validates within {@code bound}.
     *
     * @throws InterruptedException if the calling thread is interrupted while waiting
     */
    public static Result check(TargetConfig config, Duration bound) throws InterruptedException {
        Deadline deadline = Deadline.after(bound);
        ConnectionSettings settings = ConnectionSettings.from(config);
        ConnectionFactory factory = ConnectionFactory.builder(settings)
            .connectionName("jetsink check " + config.displayId())
            .build();
        Connection c;
        try {
            c = factory.connect(bound);
        } catch (ConnectFailedException e) {
            return new Result.Refused(e.getMessage(), false);
        }
        try {
            String version = c.getServerInfo().getVersion();
            if (!config.jetstreamEnabled()) {
                try {
                    c.flush(deadline.expired() ? Duration.ofMillis(1) : deadline.remaining());
                } catch (TimeoutException e) {
                    return new Result.Refused("connected, but the server did not answer within " + bound.toMillis() + " ms",
                        false);
                }
                return new Result.Reachable(version, List.of());
            }
            String stream = config.streamName().orElseThrow();
            // A private verdict and no listener: the probe must leave no trace on running targets.
            StreamCheck check = new StreamCheck(config.displayId(), stream, config.subjectTemplate().captureSpace(),
                (int) config.ackTimeout().toSeconds(), settings.jetStreamApi(), new Verdict(), OutcomeClassifier.forJetStream(stream),
                LifecycleListener.NONE);
            ValidationResult result = check.lookup(c, deadline);
            if (result instanceof ValidationResult.Failed f) {
                return new Result.Refused("stream validation failed: " + f.message(), f.has(ValidationResult.Cause.SEALED));
            }
            return new Result.Reachable(version, ((ValidationResult.Passed) result).advice());
        } finally {
            c.close();
        }
    }
}

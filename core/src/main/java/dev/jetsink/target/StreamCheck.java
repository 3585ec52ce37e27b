package dev.jetsink.target;

import dev.jetsink.nats.OutcomeClassifier;
import dev.jetsink.nats.StreamFacts;
import dev.jetsink.nats.StreamValidator;
import dev.jetsink.nats.ValidationResult;
import dev.jetsink.nats.Verdict;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamOptions;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream validation of SPEC §6 for one target: one stream-info lookup, the requirements, the
 * verdict, and the log lines an operator reads to confirm the JetStream path took effect.
 */
final class StreamCheck {

    private static final Logger log = LoggerFactory.getLogger(StreamCheck.class);
    private static final Duration MIN_LOOKUP = Duration.ofMillis(50);

    private final String target;
    private final String stream;
    private final StreamValidator validator;
    private final OutcomeClassifier classifier;
    private final Verdict verdict;
    private final LifecycleListener events;

    StreamCheck(String target, String stream, String subject, int ackTimeoutSecs, Verdict verdict,
                OutcomeClassifier classifier, LifecycleListener events) {
        this.target = target;
        this.stream = stream;
        this.validator = new StreamValidator(stream, subject, ackTimeoutSecs);
        this.classifier = classifier;
        this.verdict = verdict;
        this.events = events;
    }

    /** Passes at once on a PASS verdict; otherwise validates live and throws when it fails. */
    void ensure(Connection c, Deadline deadline) throws StreamValidationFailure {
        if (verdict.isPass()) {
            return;
        }
        ValidationResult result = validateNow(c, deadline);
        if (result instanceof ValidationResult.Failed f) {
            throw new StreamValidationFailure(f);
        }
    }

    /** One live lookup, then the verdict and log lines it implies. */
    ValidationResult validateNow(Connection c, Deadline deadline) {
        ValidationResult result = lookup(c, deadline);
        if (result instanceof ValidationResult.Passed p) {
            if (verdict.pass()) {
                log.info("JetStream stream validation succeeded target=\"{}\" stream={}", target, stream);
                p.advice().forEach(a -> log.warn("JetStream stream advice target=\"{}\" stream={} advice=\"{}\"", target, stream, a));
                events.verdictChanged(new LifecycleEvent.VerdictChanged(target, Verdict.State.PASS, Optional.empty()));
            } else {
                log.debug("JetStream stream re-validation succeeded target=\"{}\" stream={}", target, stream);
            }
        } else if (result instanceof ValidationResult.Failed f) {
            log.error("JetStream stream validation failed target=\"{}\" stream={} error=\"{}\"", target, stream, f.message());
        }
        return result;
    }

    /** The stream-info lookup and the §6 requirements, without touching the verdict. */
    ValidationResult lookup(Connection c, Deadline deadline) {
        Duration timeout = deadline.remaining();
        if (timeout.compareTo(MIN_LOOKUP) < 0) {
            return validator.unreachable(dev.jetsink.nats.Outcome.attemptDeadlineExceeded());
        }
        try {
            var jsm = c.jetStreamManagement(JetStreamOptions.builder().requestTimeout(timeout).build());
            return validator.validate(StreamFacts.from(jsm.getStreamInfo(stream)));
        } catch (JetStreamApiException | IOException | RuntimeException e) {
            return validator.lookupFailed(classifier.classify(e));
        }
    }

    String stream() {
        return stream;
    }

    /** A validation on the attempt path failed: the attempt is retryable. */
    static final class StreamValidationFailure extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient ValidationResult.Failed result;

        StreamValidationFailure(ValidationResult.Failed result) {
            super("stream validation failed: " + result.message(), null, false, false);
            this.result = result;
        }

        ValidationResult.Failed result() {
            return result;
        }
    }
}

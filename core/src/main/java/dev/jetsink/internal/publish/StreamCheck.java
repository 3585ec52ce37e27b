package dev.jetsink.internal.publish;

import dev.jetsink.internal.nats.Classified;
import dev.jetsink.internal.nats.DuplicateWindow;
import dev.jetsink.internal.nats.JetStreamApi;
import dev.jetsink.internal.nats.OutcomeClassifier;
import dev.jetsink.internal.nats.StreamFacts;
import dev.jetsink.internal.nats.StreamValidator;
import dev.jetsink.internal.nats.ValidationResult;
import dev.jetsink.internal.nats.Verdict;
import dev.jetsink.internal.time.Deadline;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.LifecycleListener;
import dev.jetsink.lifecycle.StreamVerdict;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream validation (DESIGN.md "Stream validation and verdict") for one target: one stream-info
 * lookup, the requirements, the verdict, and the log lines an operator reads to confirm the
 * JetStream path took effect.
 */
public final class StreamCheck {

    private static final Logger log = LoggerFactory.getLogger(StreamCheck.class);
    private static final Duration MIN_LOOKUP = Duration.ofMillis(50);

    private final String target;
    private final String stream;
    private final String subject;
    private final JetStreamApi api;
    private final StreamValidator validator;
    private final OutcomeClassifier classifier;
    private final Verdict verdict;
    private final LifecycleListener events;
    /** The last live validation's failure, cleared by a pass: the target is failing meanwhile. */
    private volatile Optional<String> failure = Optional.empty();
    /** What the last stream lookup read as the stream's duplicate window, if one got an answer. */
    private volatile Optional<Duration> observedWindow = Optional.empty();
    private final Duration requiredWindow;

    /**
     * @param api where the lookups (and the target's publishes, {@link #api()}) send JetStream requests
     */
    public StreamCheck(String target, String stream, String subject, int ackTimeoutSecs, JetStreamApi api,
                Verdict verdict, OutcomeClassifier classifier, LifecycleListener events) {
        this.target = target;
        this.stream = stream;
        this.subject = subject;
        this.api = api;
        this.validator = new StreamValidator(stream, subject, ackTimeoutSecs);
        this.requiredWindow = DuplicateWindow.required(ackTimeoutSecs);
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
    public ValidationResult validateNow(Connection c, Deadline deadline) {
        ValidationResult result = lookup(c, deadline);
        if (result instanceof ValidationResult.Passed p) {
            failure = Optional.empty();
            if (verdict.pass()) {
                log.info("JetStream stream validation succeeded target=\"{}\" stream={}", target, stream);
                p.advice().forEach(a -> log.warn("JetStream stream advice target=\"{}\" stream={} advice=\"{}\"", target, stream, a));
                events.verdictChanged(new LifecycleEvent.VerdictChanged(target, StreamVerdict.PASS, Optional.empty()));
            } else {
                log.debug("JetStream stream re-validation succeeded target=\"{}\" stream={}", target, stream);
            }
        } else if (result instanceof ValidationResult.Failed f) {
            failure = Optional.of("stream validation failed: " + f.message());
            log.error("JetStream stream validation failed target=\"{}\" stream={} error=\"{}\"", target, stream, f.message());
            events.streamValidationFailed(new LifecycleEvent.StreamValidationFailed(target, stream, f.message()));
        }
        return result;
    }

    /**
     * The stream-info lookup and the stream requirements, without touching the verdict. When the
     * stream is missing or does not capture the subject, a second lookup names the stream that
     * captures it instead, if any, so the error points at the other stream.
     */
    public ValidationResult lookup(Connection c, Deadline deadline) {
        Duration timeout = deadline.remaining();
        if (timeout.compareTo(MIN_LOOKUP) < 0) {
            return validator.unreachable(Classified.attemptDeadlineExceeded().outcome());
        }
        ValidationResult result;
        try {
            var jsm = c.jetStreamManagement(api.options(timeout));
            StreamFacts facts = StreamFacts.from(jsm.getStreamInfo(stream));
            observedWindow = Optional.of(facts.duplicateWindow());
            result = validator.validate(facts);
        } catch (JetStreamApiException | IOException | RuntimeException e) {
            result = validator.lookupFailed(classifier.classify(e).outcome());
            if (!api.isDefault() && result instanceof ValidationResult.Failed f && f.has(ValidationResult.Cause.UNREACHABLE)) {
                // a wrong domain or prefix looks like JetStream being off: say which one was asked
                result = f.and(new ValidationResult.Problem(ValidationResult.Cause.UNREACHABLE,
                    "no JetStream answered through " + api.describe()));
            }
        }
        if (result instanceof ValidationResult.Failed f
                && (f.has(ValidationResult.Cause.SUBJECT_NOT_CAPTURED) || f.has(ValidationResult.Cause.STREAM_NOT_FOUND))) {
            Optional<String> other = capturing(c, deadline);
            if (other.isPresent()) {
                return validator.capturedElsewhere(f, other.get());
            }
        }
        return result;
    }

    /** The stream other than the configured one that captures the subject now, if the lookup can tell. */
    private Optional<String> capturing(Connection c, Deadline deadline) {
        Duration timeout = deadline.remaining();
        if (timeout.compareTo(MIN_LOOKUP) < 0) {
            return Optional.empty();
        }
        try {
            var jsm = c.jetStreamManagement(api.options(timeout));
            return jsm.getStreamNames(subject).stream().filter(name -> !name.equals(stream)).findFirst();
        } catch (JetStreamApiException | IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Why the last live validation failed, while no validation has passed since. */
    public Optional<String> failure() {
        return verdict.isPass() ? Optional.empty() : failure;
    }

    public String stream() {
        return stream;
    }

    /** Where this target's JetStream requests go; the publisher's context uses it too. */
    public JetStreamApi api() {
        return api;
    }

    /**
     * The stream's duplicate window as the last lookup read it; before any lookup answered, the
     * window validation requires (a stream that passes has at least that), so a target that never
     * reached its broker still reports a lower bound rather than nothing.
     */
    public Duration duplicateWindow() {
        return observedWindow.orElse(requiredWindow);
    }

    /** A validation on the attempt path failed: the attempt is retryable. */
    public static final class StreamValidationFailure extends Exception {
        private static final long serialVersionUID = 1L;

        public StreamValidationFailure(ValidationResult.Failed result) {
            super("stream validation failed: " + result.message(), null, false, false);
        }
    }
}

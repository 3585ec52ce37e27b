package dev.jetsink.internal.nats;

import dev.jetsink.internal.nats.ValidationResult.Cause;
import dev.jetsink.internal.nats.ValidationResult.Problem;
import dev.jetsink.lifecycle.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The stream requirements (DESIGN.md "Stream validation and verdict", OPERATIONS.md section 3),
 * checked against the facts of one stream-info lookup. Every failed requirement is reported, so an
 * operator fixes a stream in one pass rather than one error per restart. Pure logic: the lookup and
 * the verdict belong to the caller.
 */
public final class StreamValidator {

    /** Below this many replicas a stream is durable only against a clean restart. */
    static final int RECOMMENDED_REPLICAS = 3;

    private final String stream;
    private final String subject;
    private final int ackTimeoutSecs;

    /**
     * @param stream         the configured stream name
     * @param subject        the publish subject, or a subject template's space
     *                       ({@code SubjectTemplate#captureSpace}: wildcards stand for placeholders)
     * @param ackTimeoutSecs the configured {@code jetstream_ack_timeout_secs}
     */
    public StreamValidator(String stream, String subject, int ackTimeoutSecs) {
        this.stream = Objects.requireNonNull(stream, "stream");
        this.subject = Objects.requireNonNull(subject, "subject");
        this.ackTimeoutSecs = ackTimeoutSecs;
        DuplicateWindow.requiredSeconds(ackTimeoutSecs); // rejects a non-positive timeout early
    }

    /** Whether the subject is a template's space (it holds wildcards) rather than one subject. */
    private boolean templated() {
        return subject.contains("*") || subject.contains(">");
    }

    public ValidationResult validate(StreamFacts facts) {
        List<Problem> problems = new ArrayList<>();
        if (facts.mirror()) {
            problems.add(new Problem(Cause.MIRROR, "stream " + stream + " is a mirror and accepts no publishes"));
        }
        if (facts.counter()) {
            problems.add(new Problem(Cause.COUNTER, "stream " + stream + " is a counter stream (allow_msg_counter)"
                    + " and refuses every publish that is not a counter increment"));
        }
        if (!templated()) {
            if (facts.subjects().stream().noneMatch(filter -> SubjectMatcher.captures(filter, subject))) {
                problems.add(new Problem(Cause.SUBJECT_NOT_CAPTURED, "stream " + stream + " does not capture subject "
                        + subject + " (subjects: " + String.join(", ", facts.subjects()) + ")"));
            }
        } else {
            SubjectMatcher.missed(facts.subjects(), subject).ifPresent(example -> problems.add(new Problem(
                Cause.SUBJECT_NOT_CAPTURED, "stream " + stream + " does not capture every subject of the template:"
                    + " it must list " + subject + " (subjects: " + String.join(", ", facts.subjects())
                    + "); it would miss e.g. " + example)));
        }
        if (facts.noAck()) {
            problems.add(new Problem(Cause.NO_ACK, "stream " + stream
                    + " has no_ack set and would never acknowledge a publish"));
        }
        if (facts.sealed()) {
            problems.add(new Problem(Cause.SEALED, "stream " + stream + " is sealed"));
        }
        Duration required = DuplicateWindow.required(ackTimeoutSecs);
        if (facts.duplicateWindow().compareTo(required) < 0) {
            problems.add(new Problem(Cause.DUPLICATE_WINDOW_TOO_SMALL, "duplicate window "
                    + facts.duplicateWindow().toSeconds() + "s is below the required " + required.toSeconds()
                    + "s for ack timeout " + ackTimeoutSecs + "s"));
        }
        if (!problems.isEmpty()) {
            return new ValidationResult.Failed(problems);
        }
        return new ValidationResult.Passed(advice(facts));
    }

    /**
     * Adds to {@code failed} that another stream, {@code capturing}, holds the publish subject
     * now (the operator's likely mistake when the subject is not captured or the stream is gone).
     */
    public ValidationResult.Failed capturedElsewhere(ValidationResult.Failed failed, String capturing) {
        return failed.and(new Problem(Cause.SUBJECT_NOT_CAPTURED, "subject " + subject
                + " is captured by stream " + capturing + " instead"));
    }

    /** The lookup found no stream of the configured name. */
    public ValidationResult.Failed streamMissing() {
        return ValidationResult.streamMissing(stream);
    }

    /** The lookup failed; {@code outcome} is the classified failure of the lookup. */
    public ValidationResult.Failed unreachable(Outcome outcome) {
        return ValidationResult.unreachable(stream, outcome.detail());
    }

    /**
     * The result of a stream-info lookup that failed with {@code outcome} (classified by
     * {@link OutcomeClassifier}): a 10059 means the stream is missing, anything else that it could
     * not be looked up.
     */
    public ValidationResult.Failed lookupFailed(Outcome outcome) {
        return outcome.cause() == Outcome.Cause.STREAM_NOT_FOUND ? streamMissing() : unreachable(outcome);
    }

    private List<String> advice(StreamFacts facts) {
        List<String> advice = new ArrayList<>();
        if (facts.replicas() < RECOMMENDED_REPLICAS) {
            advice.add("stream " + stream + " has " + facts.replicas() + " replica(s); with fewer than "
                    + RECOMMENDED_REPLICAS + " an acknowledged event survives a clean restart but not the loss"
                    + " of the node holding it");
        }
        if (facts.storage() == StreamFacts.Storage.MEMORY) {
            advice.add("stream " + stream + " uses memory storage; a server restart loses stored events");
        }
        if (facts.persistAsync()) {
            advice.add("stream " + stream + " has persist_mode async: the server acknowledges a publish before"
                    + " writing it, so a crash of the server can lose events jetsink has already removed from its"
                    + " queue; use the default persist mode");
        }
        return advice;
    }
}

package dev.jetsink.internal.nats;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The answer of one stream validation (DESIGN.md "Stream validation and verdict"): passed (possibly
 * with advice to log once as warnings), or failed with every problem found, each naming its cause.
 */
public sealed interface ValidationResult permits ValidationResult.Passed, ValidationResult.Failed {

    /** Why a validation failed. */
    enum Cause {
        STREAM_NOT_FOUND, UNREACHABLE, MIRROR, COUNTER, SUBJECT_NOT_CAPTURED, NO_ACK, SEALED, DUPLICATE_WINDOW_TOO_SMALL
    }

    /** One failed requirement and the operator-facing message that names it. */
    record Problem(Cause cause, String message) {
        public Problem {
            Objects.requireNonNull(cause, "cause");
            Objects.requireNonNull(message, "message");
        }
    }

    /** The stream meets every requirement; {@code advice} holds warnings such as a low replica count. */
    record Passed(List<String> advice) implements ValidationResult {
        public Passed {
            advice = List.copyOf(advice);
        }
    }

    /** The stream fails at least one requirement; problems are in check order. */
    record Failed(List<Problem> problems) implements ValidationResult {
        public Failed {
            problems = List.copyOf(problems);
            if (problems.isEmpty()) {
                throw new IllegalArgumentException("a failed validation names at least one problem");
            }
        }

        /** True if one of the problems has {@code cause}, e.g. {@link Cause#SEALED} fails init. */
        public boolean has(Cause cause) {
            return problems.stream().anyMatch(p -> p.cause() == cause);
        }

        /** This result with one more problem at the end. */
        public Failed and(Problem problem) {
            List<Problem> more = new java.util.ArrayList<>(problems);
            more.add(problem);
            return new Failed(more);
        }

        /** All problem messages joined for one error log line. */
        public String message() {
            return problems.stream().map(Problem::message).collect(Collectors.joining("; "));
        }
    }

    default boolean passed() {
        return this instanceof Passed;
    }

    /** The lookup answered 404 / 10059: the stream does not exist. */
    static Failed streamMissing(String stream) {
        return new Failed(List.of(new Problem(Cause.STREAM_NOT_FOUND, "stream " + stream + " not found")));
    }

    /**
     * The lookup itself failed (no connection, timeout, no responders). {@code detail} must come
     * from the fixed vocabulary, e.g. an {@link Outcome#detail()}.
     */
    static Failed unreachable(String stream, String detail) {
        return new Failed(List.of(new Problem(Cause.UNREACHABLE,
                "stream " + stream + " could not be looked up: " + detail)));
    }
}

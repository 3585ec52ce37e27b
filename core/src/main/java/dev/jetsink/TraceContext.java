package dev.jetsink;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A W3C trace context (<a href="https://www.w3.org/TR/trace-context/">Trace Context</a>) to carry
 * with an event: jetsink stores it with the queued entry and publishes it as the
 * {@code traceparent} and {@code tracestate} headers of the NATS message, so a trace started where
 * the event began continues in its consumer.
 *
 * <pre>{@code
 * TraceContext.parse(request.getHeader("traceparent"), request.getHeader("tracestate"))
 *     .ifPresent(trace -> sink.send(event, trace));
 * }</pre>
 *
 * @param traceparent the {@code traceparent} value, e.g.
 *                    {@code 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01}
 * @param tracestate  the {@code tracestate} value, when there is one
 */
public record TraceContext(String traceparent, Optional<String> tracestate) {
    private static final Pattern VERSION_00 = Pattern.compile("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
    private static final Pattern LATER_VERSION =
        Pattern.compile("(?!ff)[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}(-[\\x21-\\x7e]*)?");
    /** The longest {@code traceparent} or {@code tracestate} kept; W3C caps {@code tracestate} at 512. */
    public static final int MAX_CHARS = 512;

    /**
     * Checks both values.
     *
     * @param traceparent the {@code traceparent} value
     * @param tracestate  the {@code tracestate} value, when there is one
     * @throws IllegalArgumentException when {@code traceparent} is not a valid W3C traceparent, or
     *                                  {@code tracestate} is empty, longer than {@value #MAX_CHARS}
     *                                  characters or not printable ASCII
     */
    public TraceContext {
        Objects.requireNonNull(traceparent, "traceparent");
        Objects.requireNonNull(tracestate, "tracestate");
        if (!validParent(traceparent)) {
            throw new IllegalArgumentException("not a W3C traceparent: " + clip(traceparent));
        }
        if (tracestate.isPresent() && !validState(tracestate.get())) {
            throw new IllegalArgumentException("not a W3C tracestate: " + clip(tracestate.get()));
        }
    }

    /**
     * The trace context of two header values as an HTTP server receives them: empty when
     * {@code traceparent} is absent or invalid (the W3C rule: start a new trace); an invalid
     * {@code tracestate} is dropped and the {@code traceparent} kept.
     *
     * @param traceparent the {@code traceparent} header, or null
     * @param tracestate  the {@code tracestate} header, or null
     * @return the context, or empty
     */
    public static Optional<TraceContext> parse(String traceparent, String tracestate) {
        if (traceparent == null || !validParent(traceparent.trim())) {
            return Optional.empty();
        }
        String state = tracestate == null ? "" : tracestate.trim();
        return Optional.of(new TraceContext(traceparent.trim(),
            validState(state) ? Optional.of(state) : Optional.empty()));
    }

    private static boolean validParent(String value) {
        if (value.length() > MAX_CHARS) {
            return false;
        }
        boolean shape = VERSION_00.matcher(value).matches()
            || (!value.startsWith("00") && LATER_VERSION.matcher(value).matches());
        // an all-zero trace id or parent id is invalid
        return shape && !value.substring(3, 35).chars().allMatch(c -> c == '0')
            && !value.substring(36, 52).chars().allMatch(c -> c == '0');
    }

    private static boolean validState(String value) {
        return !value.isEmpty() && value.length() <= MAX_CHARS && value.chars().allMatch(c -> c >= 0x20 && c <= 0x7e);
    }

    private static String clip(String value) {
        return value.length() <= 80 ? value : value.substring(0, 80) + "...";
    }
}

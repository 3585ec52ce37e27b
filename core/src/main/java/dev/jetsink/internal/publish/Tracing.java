package dev.jetsink.internal.publish;

import dev.jetsink.internal.event.EventMetadata;
import java.util.Optional;

/**
 * OpenTelemetry spans around an event's enqueue and publish, through
 * {@code opentelemetry-api} only when it is on the class path and the caller gave (or, for the
 * daemon, registered globally) an {@code OpenTelemetry}; {@link #NONE} otherwise, which costs one
 * call per event. A span's context, when it has one, is what the next step propagates: the stored
 * {@code traceparent} becomes the enqueue span's, the published one the publish span's, so the
 * consumer's trace continues from jetsink's.
 */
public interface Tracing {
    /** No spans; the trace context an event came with is stored and published unchanged. */
    Tracing NONE = new Tracing() {
    };

    /** Starts the span from an event's arrival to its fsync; its parent is the event's trace context. */
    default Span enqueue(String target, EventMetadata metadata, Optional<String> traceparent,
                         Optional<String> tracestate) {
        return Span.NONE;
    }

    /**
     * Starts the span of one publish attempt; its parent is the entry's stored trace context.
     * {@code msgId} is empty on the Core path without a queue, where there is none.
     */
    default Span publish(String target, String subject, String msgId, Optional<String> traceparent,
                         Optional<String> tracestate) {
        return Span.NONE;
    }

    /** One started span. */
    interface Span {
        Span NONE = new Span() {
        };

        /** This span's W3C {@code traceparent}, when it has a valid context. */
        default Optional<String> traceparent() {
            return Optional.empty();
        }

        /** The {@code tracestate} that goes with {@link #traceparent()}. */
        default Optional<String> tracestate() {
            return Optional.empty();
        }

        /** Ends the span; {@code failure} null for success. */
        default void end(Throwable failure) {
        }
    }

    /**
     * Spans through {@code openTelemetry} (an {@code io.opentelemetry.api.OpenTelemetry}).
     *
     * @throws IllegalStateException when opentelemetry-api is not on the class path
     */
    static Tracing of(Object openTelemetry) {
        if (!apiPresent()) {
            throw new IllegalStateException("io.opentelemetry:opentelemetry-api is not on the class path");
        }
        return OpenTelemetryTracing.of(openTelemetry);
    }

    /**
     * Spans through the globally registered OpenTelemetry (an agent or an SDK the application set
     * up before), or {@link #NONE} when opentelemetry-api is absent or nothing is registered (then
     * every publish would build no-op spans for nothing: the daemon profile showed them).
     */
    static Tracing global() {
        return apiPresent() ? OpenTelemetryTracing.global() : NONE;
    }

    private static boolean apiPresent() {
        try {
            Class.forName("io.opentelemetry.api.GlobalOpenTelemetry", false, Tracing.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}

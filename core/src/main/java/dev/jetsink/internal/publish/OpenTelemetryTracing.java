package dev.jetsink.internal.publish;

import dev.jetsink.internal.event.EventMetadata;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/* The only class that touches opentelemetry-api; loaded only through Tracing when the API is present. */
final class OpenTelemetryTracing implements Tracing {
    private static final String SCOPE = "dev.jetsink";
    // Only the W3C propagator reads it, and that calls get() alone: keys(), deprecated, is left to
    // its default (used by no propagator here).
    private static final TextMapGetter<Map<String, String>> GETTER = new TextMapGetter<>() {
        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    private final Tracer tracer;

    private OpenTelemetryTracing(OpenTelemetry openTelemetry) {
        this.tracer = openTelemetry.getTracer(SCOPE);
    }

    static Tracing of(Object openTelemetry) {
        return new OpenTelemetryTracing((OpenTelemetry) openTelemetry);
    }

    /** The global OpenTelemetry's spans, or {@link Tracing#NONE} when nothing registered one (its no-op tracer). */
    static Tracing global() {
        OpenTelemetry global = GlobalOpenTelemetry.get();
        if (global.getTracer(SCOPE) == OpenTelemetry.noop().getTracer(SCOPE)) {
            return Tracing.NONE;
        }
        return new OpenTelemetryTracing(global);
    }

    @Override
    public Tracing.Span enqueue(String target, EventMetadata metadata, Optional<String> traceparent,
                                Optional<String> tracestate) {
        SpanBuilder b = tracer.spanBuilder("jetsink enqueue").setSpanKind(SpanKind.INTERNAL)
            .setParent(parent(traceparent, tracestate))
            .setAttribute("jetsink.target", target)
            .setAttribute("jetsink.kind", metadata.kind().label());
        return wrap(b.startSpan());
    }

    @Override
    public Tracing.Span publish(String target, String subject, String msgId, Optional<String> traceparent,
                                Optional<String> tracestate) {
        SpanBuilder b = tracer.spanBuilder(subject + " publish").setSpanKind(SpanKind.PRODUCER)
            .setParent(parent(traceparent, tracestate))
            .setAttribute("messaging.system", "nats")
            .setAttribute("messaging.operation.type", "send")
            .setAttribute("messaging.destination.name", subject)
            .setAttribute("jetsink.target", target);
        if (!msgId.isEmpty()) {
            b.setAttribute("messaging.message.id", msgId);
        }
        return wrap(b.startSpan());
    }

    private static Context parent(Optional<String> traceparent, Optional<String> tracestate) {
        if (traceparent.isEmpty()) {
            return Context.root();
        }
        Map<String, String> carrier = new HashMap<>(4);
        carrier.put("traceparent", traceparent.get());
        tracestate.ifPresent(v -> carrier.put("tracestate", v));
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), carrier, GETTER);
    }

    private static Tracing.Span wrap(io.opentelemetry.api.trace.Span span) {
        Map<String, String> carrier = new HashMap<>(4);
        if (span.getSpanContext().isValid()) {
            W3CTraceContextPropagator.getInstance().inject(Context.root().with(span), carrier, Map::put);
        }
        Optional<String> parent = Optional.ofNullable(carrier.get("traceparent"));
        Optional<String> state = Optional.ofNullable(carrier.get("tracestate")).filter(s -> !s.isEmpty());
        return new Tracing.Span() {
            @Override
            public Optional<String> traceparent() {
                return parent;
            }

            @Override
            public Optional<String> tracestate() {
                return state;
            }

            @Override
            public void end(Throwable failure) {
                if (failure != null) {
                    span.setStatus(StatusCode.ERROR, failure.getClass().getSimpleName());
                }
                span.end();
            }
        };
    }
}

package dev.jetsink;

import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.lifecycle.LifecycleListener;

/**
 * The one place the front door touches Micrometer, loaded only when a registry was given: without
 * one, no Micrometer class is ever needed (it is an optional dependency of jetsink-core).
 */
interface SinkMetrics {

    static SinkMetrics of(Object registry) {
        dev.jetsink.internal.metrics.TargetMetrics m =
            new dev.jetsink.internal.metrics.TargetMetrics((io.micrometer.core.instrument.MeterRegistry) registry);
        return new SinkMetrics() {
            @Override
            public LifecycleListener listener() {
                return m;
            }

            @Override
            public void register(NatsTarget target) {
                m.register(target);
            }

            @Override
            public void unregister(NatsTarget target) {
                m.unregister(target);
            }
        };
    }

    LifecycleListener listener();

    void register(NatsTarget target);

    void unregister(NatsTarget target);
}

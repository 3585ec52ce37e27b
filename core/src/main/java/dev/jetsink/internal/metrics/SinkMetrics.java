package dev.jetsink.internal.metrics;

import dev.jetsink.internal.targets.NatsTarget;
import dev.jetsink.lifecycle.LifecycleListener;

/**
 * The one place the library's front door touches Micrometer, loaded only when a registry was given:
 * without one, no Micrometer class is ever needed (it is an optional dependency of jetsink-core).
 */
public interface SinkMetrics {

    static SinkMetrics of(Object registry) {
        TargetMetrics m = new TargetMetrics((io.micrometer.core.instrument.MeterRegistry) registry);
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

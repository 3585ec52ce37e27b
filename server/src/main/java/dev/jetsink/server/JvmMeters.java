package dev.jetsink.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * The daemon process's own health on {@code /metrics}: heap and buffer pools, GC pauses, threads,
 * loaded classes, CPU, uptime and open file descriptors (Micrometer's {@code jvm_*},
 * {@code process_*} and {@code system_*} series). Closing it stops the GC listener.
 */
final class JvmMeters implements AutoCloseable {

    private final JvmGcMetrics gc;

    private JvmMeters(JvmGcMetrics gc) {
        this.gc = gc;
    }

    static JvmMeters bind(MeterRegistry registry) {
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        return new JvmMeters(gc);
    }

    @Override
    public void close() {
        gc.close();
    }
}

package dev.jetsink.server.cli;

import dev.jetsink.internal.config.LoadedConfig;
import dev.jetsink.server.Daemon;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * SIGHUP, which {@code systemctl reload jetsink} sends ({@code ExecReload=}), reloads the targets
 * ({@link dev.jetsink.server.admin.TargetReload}). Without this handler the JVM would treat SIGHUP
 * as a request to exit, so it is installed before the daemon starts; a SIGHUP that arrives before
 * the daemon runs is logged and ignored. Reloads run one at a time on their own thread, never on
 * the JVM's signal thread.
 */
final class ReloadSignal {
    private static final Logger log = LoggerFactory.getLogger(ReloadSignal.class);

    private ReloadSignal() {
    }

    static void install(AtomicReference<Daemon> running, Supplier<LoadedConfig> configuration, boolean allowUnknownKeys) {
        ExecutorService reloads = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "jetsink-reload");
            t.setDaemon(true);
            return t;
        });
        Signal.handle(new Signal("HUP"), signal -> {
            Daemon daemon = running.get();
            if (daemon == null) {
                log.warn("SIGHUP before the daemon runs: ignored, nothing to reload yet");
                return;
            }
            log.info("SIGHUP: reloading the target configuration");
            reloads.execute(() -> {
                try {
                    daemon.reloader(configuration, allowUnknownKeys).reload();
                } catch (RuntimeException e) {
                    log.error("reload failed error=\"{}: {}\"", e.getClass().getSimpleName(), e.getMessage());
                }
            });
        });
    }
}

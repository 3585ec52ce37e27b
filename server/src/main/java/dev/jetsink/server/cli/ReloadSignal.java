package dev.jetsink.server.cli;

import dev.jetsink.internal.config.LoadedConfig;
import dev.jetsink.server.Daemon;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIGHUP, which {@code systemctl reload jetsink} sends ({@code ExecReload=}), reloads the targets
 * ({@link dev.jetsink.server.admin.TargetReload}). Without this handler the JVM would treat SIGHUP
 * as a request to exit, so it is installed before the daemon starts; a SIGHUP that arrives before
 * the daemon runs is logged and ignored. Reloads run one at a time on their own thread, never on
 * the JVM's signal thread.
 *
 * <p>The handler is {@code sun.misc.Signal}'s (module {@code jdk.unsupported}), reached by
 * reflection: javac warns on every compile-time use of {@code sun.misc}, and no annotation
 * silences that warning.
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
        handle("HUP", () -> {
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

    /**
     * {@code sun.misc.Signal.handle(new Signal(name), signal -> onSignal.run())}. What that throws
     * (an {@link IllegalArgumentException} for a signal the JVM keeps, say) is thrown as is.
     */
    private static void handle(String name, Runnable onSignal) {
        try {
            Class<?> signalType = Class.forName("sun.misc.Signal");
            Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
            InvocationHandler calls = (proxy, method, args) -> switch (method.getName()) {
                case "handle" -> {
                    onSignal.run();
                    yield null;
                }
                case "equals" -> proxy == args[0];
                case "hashCode" -> System.identityHashCode(proxy);
                case "toString" -> "jetsink SIG" + name + " handler";
                default -> throw new UnsupportedOperationException(method.toString());
            };
            Object handler = Proxy.newProxyInstance(ReloadSignal.class.getClassLoader(), new Class<?>[] {handlerType}, calls);
            Object signal = signalType.getConstructor(String.class).newInstance(name);
            signalType.getMethod("handle", signalType, handlerType).invoke(null, signal, handler);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error cause) {
                throw cause;
            }
            throw new IllegalStateException("cannot handle SIG" + name, e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot handle SIG" + name + ": sun.misc.Signal is not available", e);
        }
    }
}

package dev.jetsink.server.cli;

import dev.jetsink.ConfigProblem;
import dev.jetsink.internal.config.ConfigLoader;
import dev.jetsink.internal.config.JetsinkConfig;
import dev.jetsink.internal.config.LoadedConfig;
import dev.jetsink.server.Daemon;
import dev.jetsink.server.ExitCode;
import dev.jetsink.server.LogSetup;
import dev.jetsink.server.http.InheritedSocket;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jetsink serve [--config FILE] [--allow-unknown-keys]}: validates the configuration
 * (exit 2 with every error), starts the targets and the HTTP server, and runs until SIGTERM,
 * which shuts down cleanly (DESIGN.md "Daemon") and exits 0.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Run the daemon: HTTP ingest, /metrics and /health, delivery to NATS.")
public final class ServeCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

    @Option(names = "--config", paramLabel = "FILE", description = "config file of NAME=value lines; the environment overrides it")
    Optional<Path> configFile = Optional.empty();

    @Option(names = "--allow-unknown-keys", description = "start even when unknown or unused configuration keys are set (they are logged)")
    boolean allowUnknownKeys;

    @Spec
    CommandSpec spec;

    private final Map<String, String> env;

    public ServeCommand() {
        this(System.getenv());
    }

    public ServeCommand(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    @Override
    public Integer call() {
        Optional<JetsinkConfig> config = resolve(env, configFile, allowUnknownKeys, spec.commandLine().getErr());
        if (config.isEmpty()) {
            return ExitCode.USAGE;
        }
        // The hook is in place before anything listens: a SIGTERM that arrives while the daemon
        // starts (a supervisor's stop right after a start) waits for the start, then shuts down
        // cleanly, instead of killing the JVM with exit 143 half-way.
        java.util.concurrent.atomic.AtomicReference<Daemon> running = new java.util.concurrent.atomic.AtomicReference<>();
        CountDownLatch startEnded = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            try {
                startEnded.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Daemon d = running.get();
            if (d != null) {
                d.shutdown();
            }
            LogSetup.flush();
            // A JVM ended by SIGTERM exits 143 unless a hook halts it: a clean stop is exit 0.
            Runtime.getRuntime().halt(ExitCode.OK);
        }, "jetsink-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        ReloadSignal.install(running, () -> ConfigLoader.load(env, configFile), allowUnknownKeys);
        try {
            running.set(Daemon.start(config.get(), InheritedSocket.fromServiceManager(env)));
        } catch (IOException | RuntimeException e) {
            // e.g. the HTTP address is in use, or another process holds a queue (QueueLockedException)
            log.error("cannot start error=\"{}: {}\"", e.getClass().getSimpleName(), e.getMessage());
            try {
                Runtime.getRuntime().removeShutdownHook(hook); // the failure's exit code must stand
            } catch (IllegalStateException shuttingDown) {
                // a signal arrived meanwhile: the hook ends the JVM
            }
            return ExitCode.FAILURE;
        } finally {
            startEnded.countDown();
        }
        CountDownLatch forever = new CountDownLatch(1);
        try {
            forever.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return ExitCode.OK;
    }

    /**
     * Loads and checks the configuration and applies the log format. Value errors print to
     * {@code err} (every one) and yield empty; unknown keys are logged at error and yield empty
     * unless allowed. Warnings are logged.
     */
    public static Optional<JetsinkConfig> resolve(Map<String, String> env, Optional<Path> file, boolean allowUnknownKeys,
                                           PrintWriter err) {
        LoadedConfig loaded = ConfigLoader.load(env, file);
        List<ConfigProblem> valueErrors = loaded.valueErrors();
        if (!valueErrors.isEmpty()) {
            err.println("configuration is invalid:");
            valueErrors.forEach(p -> err.println("  " + p.describe()));
            err.println(valueErrors.size() + " error(s); nothing started");
            err.flush();
            return Optional.empty();
        }
        JetsinkConfig config = loaded.config();
        LogSetup.apply(config.daemon().logFormat());
        List<ConfigProblem> keyErrors = loaded.errors();
        keyErrors.forEach(p -> log.error("configuration key problem: {}", p.describe()));
        if (!keyErrors.isEmpty() && !allowUnknownKeys) {
            log.error("refusing to start: {} unknown or unused configuration key(s); fix them or pass --allow-unknown-keys",
                keyErrors.size());
            return Optional.empty();
        }
        // The loader's warnings include JETSINK_BACKOFF_SCALE != 1, so it is logged at warn here.
        config.warnings().forEach(w -> log.warn("configuration warning: {}", w.describe()));
        if (config.activeTargets().isEmpty()) {
            log.warn("no NATS target is enabled: ingest answers 404 until one is configured");
        }
        return Optional.of(config);
    }
}

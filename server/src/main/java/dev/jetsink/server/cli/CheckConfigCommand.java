package dev.jetsink.server.cli;

import dev.jetsink.internal.config.ConfigLoader;
import dev.jetsink.internal.config.DaemonSettings;
import dev.jetsink.internal.config.HttpSettings;
import dev.jetsink.internal.config.JetsinkConfig;
import dev.jetsink.internal.config.LoadedConfig;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.server.ExitCode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jetsink check-config [--config FILE]}: resolves the configuration exactly as {@code serve}
 * would, prints each target (secrets as {@code ***}), the warnings and every error; exits 0 when
 * valid and 2 when not. The whole report goes to standard output so it reads as one document.
 */
@Command(name = "check-config", mixinStandardHelpOptions = true,
    description = "Resolve and validate the configuration; print each target and every error.")
public final class CheckConfigCommand implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE", description = "config file of NAME=value lines; the environment overrides it")
    Optional<Path> configFile = Optional.empty();

    @Spec
    CommandSpec spec;

    private final Map<String, String> env;

    public CheckConfigCommand() {
        this(System.getenv());
    }

    /** For tests: resolve {@code env} instead of the process environment. */
    public CheckConfigCommand(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        LoadedConfig loaded = ConfigLoader.load(env, configFile);
        JetsinkConfig config = loaded.config();
        if (config.targets().isEmpty()) {
            out.println("no NATS target is enabled");
        }
        config.targets().forEach(t -> printTarget(out, t, config.kindEnabled(t.kind())));
        printGlobals(out, config);
        if (!config.warnings().isEmpty()) {
            out.println("warnings:");
            config.warnings().forEach(w -> out.println("  " + w.describe()));
        }
        if (!loaded.errors().isEmpty()) {
            out.println("errors:");
            loaded.errors().forEach(e -> out.println("  " + e.describe()));
            out.println("configuration is invalid: " + loaded.errors().size() + " error(s)");
            out.flush();
            return ExitCode.USAGE;
        }
        out.println("configuration is valid");
        out.flush();
        return ExitCode.OK;
    }

    private static void printTarget(PrintWriter out, TargetConfig t, boolean kindEnabled) {
        out.println(t.displayId() + (kindEnabled ? "" : " (off: " + t.kind().globalEnableVariable() + " is off)"));
        out.println("  arn:            " + t.arn());
        out.println("  path:           " + t.path());
        out.println("  address:        " + String.join(",", t.servers()));
        out.println("  subject:        " + t.subject() + (t.subjectTemplate().hasPlaceholders()
            ? "  (template: the stream must capture " + t.subjectTemplate().captureSpace() + ")" : ""));
        out.println("  stream:         " + t.streamName().orElse("-"));
        out.println("  ack timeout:    " + t.ackTimeout().toSeconds() + "s");
        t.jetStreamDomain().ifPresent(d -> out.println("  js domain:      " + d));
        t.jetStreamApiPrefix().ifPresent(p -> out.println("  js api prefix:  " + p));
        out.println("  queue dir:      " + t.queuePath().map(Path::toString).orElse("- (no queue)"));
        out.println("  queue limit:    " + t.queueLimit());
        out.println("  publish window: " + t.publishWindow());
        out.println("  msg id:         " + t.msgIdMode().label());
        out.println("  format:         " + t.format().label());
        out.println("  auth:           " + auth(t));
        out.println("  tls:            " + tls(t));
        t.comment().ifPresent(c -> out.println("  comment:        " + c));
    }

    private static String auth(TargetConfig t) {
        if (t.username().isPresent()) {
            return "user " + t.username().get() + ", password " + t.password().map(Object::toString).orElse("-");
        }
        if (t.token().isPresent()) {
            return "token " + t.token().get();
        }
        if (t.nkeySeedFile().isPresent()) {
            return "nkey seed file " + t.nkeySeedFile().get();
        }
        return t.credentialsFile().map(f -> "credentials file " + f).orElse("none");
    }

    private static String tls(TargetConfig t) {
        StringBuilder s = new StringBuilder(t.tlsRequired() ? "required" : "optional");
        t.tlsCa().ifPresent(p -> s.append(", ca ").append(p));
        t.tlsClientCert().ifPresent(p -> s.append(", client cert ").append(p));
        t.tlsClientKey().ifPresent(p -> s.append(", client key ").append(p));
        return s.toString();
    }

    private static void printGlobals(PrintWriter out, JetsinkConfig c) {
        DaemonSettings d = c.daemon();
        out.println("global");
        out.println("  notify:                    " + (c.notifyEnabled() ? "on" : "off"));
        out.println("  audit:                     " + (c.auditEnabled() ? "on" : "off"));
        out.println("  notify stream concurrency: " + c.notifyStreamConcurrency());
        out.println("daemon");
        out.println("  http address:  " + d.httpAddress());
        out.println("  admin token:   " + d.adminToken().map(Object::toString).orElse("- (admin API disabled)"));
        out.println("  ingest token:  " + d.ingestToken().map(Object::toString).orElse("-"));
        out.println("  data dir:      " + d.dataDir().map(Path::toString).orElse("-"));
        out.println("  log format:    " + d.logFormat().name().toLowerCase(java.util.Locale.ROOT));
        out.println("  backoff scale: " + d.backoffScale());
        HttpSettings h = d.http();
        out.println("  http limits:   idle " + h.idleTimeout().toSeconds() + " s, request " + h.requestTimeout().toSeconds()
            + " s, " + h.maxConnections() + " connections, " + h.maxHeaderBytes() + " header bytes");
        out.println("  http tls:      " + h.tls().map(t -> "cert " + t.certificate() + ", key " + t.key()
            + t.clientCa().map(ca -> ", client certificates required (ca " + ca + ")").orElse("")).orElse("off"));
    }

}

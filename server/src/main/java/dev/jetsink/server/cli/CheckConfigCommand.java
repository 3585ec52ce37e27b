package dev.jetsink.server.cli;

import dev.jetsink.ConfigProblem;
import dev.jetsink.internal.config.ConfigLoader;
import dev.jetsink.internal.config.DaemonSettings;
import dev.jetsink.internal.config.HttpSettings;
import dev.jetsink.internal.config.JetsinkConfig;
import dev.jetsink.internal.config.LoadedConfig;
import dev.jetsink.internal.config.Secret;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.targets.TargetProbe;
import dev.jetsink.server.ExitCode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code jetsink check-config [--config FILE] [--strict] [--as-user NAME] [--connect]}: resolves the
 * configuration exactly as {@code serve} would and prints each target (secrets as {@code ***}),
 * each target that failed validation with its errors, the warnings and every error. Beyond what
 * {@code serve} refuses it fails what would start but not deliver or would lose events: a missing
 * TLS, CA or {@code .creds} file, a file or queue directory the daemon's user cannot use
 * ({@link ConfigPaths}), a variable whose prefix is a typo and two targets on one stream and
 * subject. Run as root, it checks as the packaged unit's user {@code jetsink} when that account
 * exists, since that is who the daemon runs as; {@code --as-user} names another. {@code --strict} makes
 * every warning an error; {@code --connect} dials each enabled target ({@link TargetProbe}). Exits 0
 * when valid, 2 when the configuration is not and 1 when it is but a target could not be reached.
 * The whole report goes to standard output so it reads as one document.
 */
@Command(name = "check-config", mixinStandardHelpOptions = true,
    description = "Resolve and validate the configuration; print each target and every error.")
public final class CheckConfigCommand implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE", description = "config file of NAME=value lines; the environment overrides it")
    Optional<Path> configFile = Optional.empty();

    @Option(names = "--strict", description = "treat every warning as an error")
    boolean strict;

    @Option(names = "--as-user", paramLabel = "NAME",
        description = "check files and queue directories as this local user (default: jetsink when run as root"
            + " and that account exists, as the packaged unit runs as jetsink; else the current user)")
    Optional<String> asUser = Optional.empty();

    @Option(names = "--connect",
        description = "dial each enabled target as the daemon would (auth, TLS, stream validation); nothing is published")
    boolean connect;

    @Option(names = "--connect-timeout", paramLabel = "S", defaultValue = "10",
        description = "bound on each target's dial, in seconds (default: ${DEFAULT-VALUE})")
    int connectTimeoutSecs;

    @Spec
    CommandSpec spec;

    private final Map<String, String> env;
    private final Path passwd;
    private final Path group;
    private final boolean runAsRoot;

    public CheckConfigCommand() {
        this(System.getenv(), UnixAccount.PASSWD, UnixAccount.GROUP, "root".equals(System.getProperty("user.name")));
    }

    /**
     * For tests: resolve {@code env} instead of the process environment, and check as the current
     * user (or {@code --as-user}) whatever accounts the host has.
     */
    public CheckConfigCommand(Map<String, String> env) {
        this(env, UnixAccount.PASSWD, UnixAccount.GROUP, false);
    }

    /** For tests: accounts from {@code passwd} and {@code group}, run as root or not. */
    CheckConfigCommand(Map<String, String> env, Path passwd, Path group, boolean runAsRoot) {
        this.env = Map.copyOf(env);
        this.passwd = passwd;
        this.group = group;
        this.runAsRoot = runAsRoot;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PathAccess access = pathAccess();
        if (connectTimeoutSecs < 1 || connectTimeoutSecs > 300) {
            throw new ParameterException(spec.commandLine(), "--connect-timeout must be between 1 and 300 seconds");
        }
        LoadedConfig loaded = ConfigLoader.load(env, configFile);
        JetsinkConfig config = loaded.config();
        List<ConfigProblem> errors = new ArrayList<>(loaded.errors());
        List<ConfigProblem> warnings = new ArrayList<>();
        // A missing file lets serve start a target that delivers nothing, a mistyped prefix drops a
        // setting and a duplicate target stores each event twice: that is what this command is for.
        config.warnings().forEach(w -> (w.category() == ConfigProblem.Category.MISSING_FILE
            || loaded.checkFailures().contains(w) ? errors : warnings).add(w));
        errors.addAll(ConfigPaths.problems(configFile, config, access));
        out.println("files and queue directories checked as " + access.account()
            .map(a -> "user " + a.name() + (asUser.isEmpty() ? " (the packaged unit's user; --as-user NAME to check as another)" : ""))
            .orElse("the current user"));

        Map<String, List<ConfigProblem>> invalid = invalidTargets(loaded);
        if (config.targets().isEmpty() && invalid.isEmpty()) {
            out.println("no NATS target is enabled");
        }
        config.targets().forEach(t -> printTarget(out, t, config.kindEnabled(t.kind())));
        invalid.forEach((id, problems) -> {
            out.println(id + " (invalid: the daemon would refuse to start)");
            problems.forEach(p -> out.println("  error: " + p.describe().substring(id.length() + 2)));
        });
        printGlobals(out, config);
        if (strict) {
            warnings.forEach(w -> errors.add(new ConfigProblem(w.target(), w.variable(), w.message() + " (--strict)",
                ConfigProblem.Category.VALUE)));
            warnings.clear();
        }
        if (!warnings.isEmpty()) {
            out.println("warnings:");
            warnings.forEach(w -> out.println("  " + w.describe()));
        }
        int code = ExitCode.OK;
        if (!errors.isEmpty()) {
            out.println("errors:");
            errors.forEach(e -> out.println("  " + e.describe()));
            out.println("configuration is invalid: " + errors.size() + " error(s)");
            code = ExitCode.USAGE;
        } else {
            out.println("configuration is valid");
        }
        if (connect && !dialAll(out, config)) {
            code = code == ExitCode.OK ? ExitCode.FAILURE : code;
        }
        out.flush();
        return code;
    }

    /** One verdict line per enabled target; true when every one was reached and valid. */
    private boolean dialAll(PrintWriter out, JetsinkConfig config) {
        out.println("connect (each target as the daemon dials it, " + connectTimeoutSecs + " s at most):");
        boolean allOk = true;
        for (TargetConfig t : config.activeTargets()) {
            out.flush();
            TargetProbe.Result result;
            try {
                result = TargetProbe.check(t, Duration.ofSeconds(connectTimeoutSecs));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                out.println("  " + t.displayId() + "  FAILED  interrupted");
                return false;
            }
            if (result instanceof TargetProbe.Result.Reachable r) {
                out.println("  " + t.displayId() + "  OK  nats-server " + r.serverVersion()
                    + t.streamName().filter(x -> t.jetstreamEnabled()).map(x -> ", stream " + x + " valid").orElse(", core publish"));
                r.advice().forEach(a -> out.println("      advice: " + a));
            } else {
                allOk = false;
                out.println("  " + t.displayId() + "  FAILED  " + ((TargetProbe.Result.Refused) result).reason());
            }
        }
        if (config.activeTargets().isEmpty()) {
            out.println("  no enabled target to dial");
        }
        return allOk;
    }

    private PathAccess pathAccess() {
        try {
            if (asUser.isEmpty()) {
                return runAsRoot ? UnixAccount.lookup(PathAccess.UNIT_USER, passwd, group).map(PathAccess::as)
                    .orElseGet(PathAccess::currentUser) : PathAccess.currentUser();
            }
            return PathAccess.as(UnixAccount.lookup(asUser.get(), passwd, group)
                .orElseThrow(() -> new ParameterException(spec.commandLine(),
                    "--as-user: no local user " + asUser.get() + " in " + passwd)));
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--as-user: cannot read the user database: " + e.getMessage());
        }
    }

    /** Targets that failed validation, by display id, with their errors: they exist, and must not vanish. */
    private static Map<String, List<ConfigProblem>> invalidTargets(LoadedConfig loaded) {
        List<String> valid = loaded.config().targets().stream().map(TargetConfig::displayId).toList();
        Map<String, List<ConfigProblem>> out = new TreeMap<>();
        loaded.errors().stream().filter(e -> e.target().endsWith(":nats") && !valid.contains(e.target()))
            .forEach(e -> out.computeIfAbsent(e.target(), k -> new ArrayList<>()).add(e));
        return out;
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
        if (t.jetstreamEnabled()) {
            out.println("  failed store:   " + t.failedMaxRecords() + " records, " + t.failedMaxAge().toHours() + " h");
        }
        out.println("  auth:           " + auth(t));
        out.println("  tls:            " + tls(t));
        t.comment().ifPresent(c -> out.println("  comment:        " + c));
    }

    private static String auth(TargetConfig t) {
        if (t.username().isPresent()) {
            return "user " + t.username().get() + ", password " + t.password().map(Secret::describe).orElse("-");
        }
        if (t.token().isPresent()) {
            return "token " + t.token().get().describe();
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
        out.println("  admin token:   " + d.adminToken().map(Secret::describe).orElse("- (admin API disabled)"));
        out.println("  ingest token:  " + d.ingestToken().map(Secret::describe).orElse("-"));
        out.println("  data dir:      " + d.dataDir().map(Path::toString).orElse("-"));
        out.println("  log format:    " + d.logFormat().name().toLowerCase(Locale.ROOT));
        out.println("  backoff scale: " + d.backoffScale());
        HttpSettings h = d.http();
        out.println("  http limits:   idle " + h.idleTimeout().toSeconds() + " s, request " + h.requestTimeout().toSeconds()
            + " s, " + h.maxConnections() + " connections, " + h.maxHeaderBytes() + " header bytes");
        out.println("  http tls:      " + h.tls().map(t -> "cert " + t.certificate() + ", key " + t.key()
            + t.clientCa().map(ca -> ", client certificates required (ca " + ca + ")").orElse("")).orElse("off"));
    }

}

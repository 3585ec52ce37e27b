package dev.jetsink.server.cli;

import dev.jetsink.internal.config.ConfigKey;
import dev.jetsink.internal.config.SubjectTemplate;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.nats.ConnectionSettings;
import dev.jetsink.server.ExitCode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code jetsink stream-plan} (DESIGN.md "Operator tools"): what an operator needs to pre-provision
 * a target's stream — the required duplicate window, a stream configuration that passes the stream
 * validation (DESIGN.md "Stream validation and verdict"), the
 * {@code nats stream add} equivalent, and the {@code queue_limit} sizing. With {@code --apply}
 * it creates the stream (see {@link StreamApply}). {@code --target ID} takes the connection and
 * the stream, subject and ack timeout from a configured target, read as {@code serve} reads them;
 * the older {@code --server}/{@code --creds}/{@code --tls-ca} still work, but not together with it.
 */
@Command(name = "stream-plan", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Plan (and optionally create) the JetStream stream a target publishes to:",
        "required duplicate window, stream config JSON, the `nats stream add` command, queue_limit sizing."})
public final class StreamPlanCommand implements Callable<Integer> {
    public static final String DEFAULT_SUBJECT = "rustfs.events";
    public static final String DEFAULT_STREAM = "RUSTFS_EVENTS";

    @Spec
    CommandSpec spec;

    @Option(names = "--ack-timeout", paramLabel = "S",
        description = "the target's jetstream_ack_timeout_secs, 10..120 (default: the --target's, else 30)")
    Optional<String> ackTimeout = Optional.empty();

    @Option(names = "--subject", paramLabel = "X",
        description = "the target's publish subject (default: the --target's, else " + DEFAULT_SUBJECT + ")")
    Optional<String> subject = Optional.empty();

    @Option(names = "--stream", paramLabel = "NAME",
        description = "stream name (default: the --target's, else " + DEFAULT_STREAM + "; --apply needs one of them)")
    Optional<String> stream = Optional.empty();

    @Option(names = "--replicas", paramLabel = "N", defaultValue = "3",
        description = "replica count, 1..5; 3 or more survives losing a node (default: ${DEFAULT-VALUE})")
    int replicas;

    @Option(names = "--max-age", paramLabel = "AGE",
        description = "keep messages at most this long, e.g. 7d or 24h (at least the duplicate window; default: no limit)")
    Optional<String> maxAge = Optional.empty();

    @Option(names = "--max-bytes", paramLabel = "SIZE",
        description = "keep at most this many bytes, e.g. 10GiB, discarding the oldest (default: no limit)")
    Optional<String> maxBytes = Optional.empty();

    @ArgGroup(exclusive = false, heading = "queue_limit sizing (give both):%n")
    Sizing sizing;

    @Option(names = "--event-bytes", paramLabel = "B", defaultValue = "1024",
        description = "average event payload in bytes, for the disk estimate (default: ${DEFAULT-VALUE})")
    long eventBytes;

    @Option(names = "--json", description = "print only the stream config JSON (for `nats stream add --config`), with the plan's warnings in a warnings array")
    boolean jsonOnly;

    @Option(names = "--apply",
        description = "create the stream through --target's connection or on --server (an operator action; targets never create streams)")
    boolean apply;

    @Mixin
    TargetSelection selection = new TargetSelection();

    @Option(names = "--server", paramLabel = "URL",
        description = "instead of --target: NATS server for --apply, host:port or nats:// / tls:// URLs")
    Optional<String> server = Optional.empty();

    @Option(names = "--creds", paramLabel = "FILE", description = "NATS .creds file for --apply")
    Optional<Path> creds = Optional.empty();

    @Option(names = "--tls-ca", paramLabel = "FILE", description = "PEM CA bundle for --apply over TLS")
    Optional<Path> tlsCa = Optional.empty();

    static final class Sizing {
        @Option(names = "--peak-rate", paramLabel = "R", required = true, description = "peak events per second")
        double peakRate;

        @Option(names = "--outage-secs", paramLabel = "T", required = true,
            description = "longest broker outage to ride out, in seconds")
        long outageSecs;
    }

    private final Map<String, String> env;

    public StreamPlanCommand() {
        this(System.getenv());
    }

    /** For tests: read {@code --target}'s configuration from {@code env} instead of the process environment. */
    public StreamPlanCommand(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    @Override
    public Integer call() {
        Optional<TargetConfig> target = target();
        StreamPlan plan = plan(target);
        Optional<QueueSizing> queue = queueSizing();
        // Resolved before anything is printed, so a bad --server is a usage error with no output.
        Optional<ConnectionSettings> settings = apply ? Optional.of(connectionSettings(target)) : Optional.empty();
        PrintWriter out = spec.commandLine().getOut();
        if (jsonOnly) {
            out.println(plan.configJsonWithWarnings());
            out.flush();
            return ExitCode.OK;
        }
        new StreamPlanReport(plan, queue, eventBytes).print(out);
        out.flush();
        if (settings.isEmpty()) {
            return ExitCode.OK;
        }
        out.println();
        target.ifPresent(t -> out.println("using the connection of target " + t.displayId()
            + (settings.get().jetStreamApi().isDefault() ? "" : " (" + settings.get().jetStreamApi().describe() + ")")));
        int code = new StreamApply(plan, out, spec.commandLine().getErr()).run(settings.get());
        out.flush();
        spec.commandLine().getErr().flush();
        return code;
    }

    private Optional<TargetConfig> target() {
        if (!selection.selected()) {
            if (selection.kind.isPresent() || selection.configFile.isPresent()) {
                throw usage("--kind and --config only go with --target");
            }
            return Optional.empty();
        }
        if (server.isPresent() || creds.isPresent() || tlsCa.isPresent()) {
            throw usage("--target takes the connection from the target's configuration:"
                + " --server, --creds and --tls-ca cannot be combined with it");
        }
        try {
            return Optional.of(selection.resolve(env));
        } catch (IllegalArgumentException e) {
            throw usage("--target: " + e.getMessage());
        }
    }

    private StreamPlan plan(Optional<TargetConfig> target) {
        int timeout = ackTimeoutSecs(target);
        String subject = this.subject.or(() -> target.map(TargetConfig::subject)).orElse(DEFAULT_SUBJECT);
        Optional<String> stream = this.stream.or(() -> target.flatMap(TargetConfig::streamName));
        check(ConfigKey.SUBJECT.rule().check("--subject", subject));
        try {
            SubjectTemplate.parseForEitherKind("--subject", subject);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        String name = stream.orElse(DEFAULT_STREAM);
        check(ConfigKey.JETSTREAM_STREAM_NAME.rule().check("--stream", name));
        if (name.isEmpty()) {
            throw usage("--stream must not be empty");
        }
        if (replicas < 1 || replicas > 5) {
            throw usage("--replicas must be between 1 and 5");
        }
        if (eventBytes < 0) {
            throw usage("--event-bytes must not be negative");
        }
        if (apply && jsonOnly) {
            throw usage("--json and --apply cannot be combined");
        }
        if (apply && ((server.isEmpty() && target.isEmpty()) || stream.isEmpty())) {
            throw usage("--apply requires --target ID (or --server URL) and a stream: --stream NAME or the target's");
        }
        if (!apply && (server.isPresent() || creds.isPresent() || tlsCa.isPresent())) {
            throw usage("--server, --creds and --tls-ca are only used with --apply");
        }
        try {
            StreamLimits limits = new StreamLimits(maxAge.map(a -> StreamLimits.parseAge("--max-age", a)),
                maxBytes.map(b -> StreamLimits.parseBytes("--max-bytes", b)));
            return new StreamPlan(name, subject, timeout, replicas, limits);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /** The same range and text as the configuration key, so operators see one rule. */
    private int ackTimeoutSecs(Optional<TargetConfig> target) {
        ConfigKey key = ConfigKey.JETSTREAM_ACK_TIMEOUT_SECS;
        String value = ackTimeout.or(() -> target.map(t -> Long.toString(t.ackTimeout().toSeconds())))
            .orElse(key.defaultValue().orElseThrow());
        check(key.rule().check(key.keyName(), value));
        return Integer.parseInt(value.trim());
    }

    private Optional<QueueSizing> queueSizing() {
        if (sizing == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(new QueueSizing(sizing.peakRate, sizing.outageSecs));
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private ConnectionSettings connectionSettings(Optional<TargetConfig> target) {
        if (target.isPresent()) {
            return ConnectionSettings.from(target.get());
        }
        try {
            ConnectionSettings.Builder b = ConnectionSettings.builder(server.orElseThrow());
            creds.ifPresent(f -> b.credentialsFile(f.toAbsolutePath()));
            tlsCa.ifPresent(f -> b.tlsCa(f.toAbsolutePath()));
            return b.build();
        } catch (IllegalArgumentException e) {
            throw usage("--server: " + e.getMessage());
        }
    }

    private void check(Optional<String> problem) {
        problem.ifPresent(p -> {
            throw usage(p);
        });
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}

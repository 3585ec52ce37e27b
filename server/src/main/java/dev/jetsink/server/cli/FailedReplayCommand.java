package dev.jetsink.server.cli;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.QueueLockedException;
import dev.jetsink.internal.config.ConfigLoader;
import dev.jetsink.internal.config.JetsinkConfig;
import dev.jetsink.internal.config.LoadedConfig;
import dev.jetsink.internal.config.Secret;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.failed.FailedReplay;
import dev.jetsink.internal.queue.QueueOptions;
import dev.jetsink.internal.queue.SegmentedQueue;
import dev.jetsink.server.ExitCode;
import dev.jetsink.server.admin.AdminHandler;
import dev.jetsink.server.admin.ReplayJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jetsink failed replay|purge}: an operator's act after a failure. When a
 * daemon holds the target's queue, the CLI asks it through the admin API (the daemon does the
 * moving, its metrics follow at once); when none does, it works on the files itself. It says which.
 */
public final class FailedReplayCommand {

    private static final Pattern RELATIVE = Pattern.compile("(\\d+)([smhd])");

    private FailedReplayCommand() {
    }

    /** What replay and purge share: which target, which records, how to answer. */
    static final class Selection {
        @Option(names = "--kind", required = true, paramLabel = "notify|audit", description = "the target's kind")
        String kind;
        @Option(names = "--target", required = true, paramLabel = "ID", description = "the target's id (_ for the default)")
        String target;
        @Option(names = "--since", paramLabel = "T",
            description = "records failed at or after T: an instant (2026-12-03T10:00:00Z) or an age (90m, 2h, 3d)")
        String since;
        @Option(names = "--until", paramLabel = "T", description = "records failed before T (same forms as --since)")
        String until;
        @Option(names = "--reason", paramLabel = "TEXT", description = "records whose error contains TEXT (case-insensitive)")
        String reason;
        @Option(names = "--limit", paramLabel = "N", description = "at most N records, oldest first")
        Integer limit;
        @Option(names = "--dry-run", description = "list what would be done; change nothing")
        boolean dryRun;
        @Option(names = "--json", description = "print the report as JSON (the admin API's answer)")
        boolean json;
        @Option(names = "--config", paramLabel = "FILE", description = "config file of NAME=value lines; the environment overrides it")
        Optional<Path> configFile = Optional.empty();
        @Option(names = "--queue-dir", paramLabel = "DIR",
            description = "the target's queue directory, when the configuration does not name it")
        Optional<Path> queueDir = Optional.empty();
        /* The admin token comes from JETSINK_ADMIN_TOKEN, as the daemon has it. */
        @Mixin
        DaemonEndpoint daemon = new DaemonEndpoint();

        FailedReplay.Filter filter(Clock clock) {
            return new FailedReplay.Filter(when(since, "--since", clock), when(until, "--until", clock),
                Optional.ofNullable(reason).filter(r -> !r.isEmpty()),
                limit == null ? OptionalInt.empty() : OptionalInt.of(limit));
        }

        TargetKind kind() {
            return switch (kind.toLowerCase(Locale.ROOT)) {
                case "notify" -> TargetKind.NOTIFY;
                case "audit" -> TargetKind.AUDIT;
                default -> throw new IllegalArgumentException("--kind must be notify or audit, not " + kind);
            };
        }
    }

    /** An instant, or an age counted back from now. */
    static Optional<Instant> when(String text, String option, Clock clock) {
        if (text == null || text.isEmpty()) {
            return Optional.empty();
        }
        Matcher m = RELATIVE.matcher(text.trim());
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            Duration d = DurationUnits.of(n, m.group(2));
            return Optional.of(clock.instant().minus(d));
        }
        try {
            return Optional.of(Instant.parse(text.trim()));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(option + " must be an instant such as 2026-12-03T10:00:00Z or an age "
                + "such as 90m, 2h, 3d; got " + text);
        }
    }

    @Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Put failed records back into their target's queue with their original msg ids.")
    static final class Replay implements Callable<Integer> {
        @Mixin
        Selection selection = new Selection();
        @Spec
        CommandSpec spec;
        private final Map<String, String> env;

        Replay() {
            this(System.getenv());
        }

        Replay(Map<String, String> env) {
            this.env = Map.copyOf(env);
        }

        @Override
        public Integer call() {
            return run(spec, selection, env, "replay");
        }
    }

    @Command(name = "purge", mixinStandardHelpOptions = true,
        description = "Delete failed records (a dry run unless --yes).")
    static final class Purge implements Callable<Integer> {
        @Mixin
        Selection selection = new Selection();
        @Option(names = "--yes", description = "really delete; without it purge only lists what it would delete")
        boolean yes;
        @Spec
        CommandSpec spec;
        private final Map<String, String> env;

        Purge() {
            this(System.getenv());
        }

        Purge(Map<String, String> env) {
            this.env = Map.copyOf(env);
        }

        @Override
        public Integer call() {
            if (!yes) {
                selection.dryRun = true;
            }
            return run(spec, selection, env, "purge");
        }
    }

    private static int run(CommandSpec spec, Selection s, Map<String, String> env, String action) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            TargetKind kind = s.kind();
            String id = s.target.toLowerCase(Locale.ROOT);
            ReplayJson.Request request = new ReplayJson.Request(s.filter(Clock.systemUTC()), s.dryRun);
            LoadedConfig loaded = ConfigLoader.load(env, s.configFile);
            JetsinkConfig config = loaded.config();
            Outcome outcome;
            if (s.daemon.urlGiven()) {
                outcome = viaDaemon(s.daemon, config, kind, id, action, request);
            } else {
                Optional<Path> dir = s.queueDir.or(() -> config.targets().stream()
                    .filter(t -> t.kind() == kind && t.id().equals(id)).findFirst().flatMap(TargetConfig::queuePath));
                if (dir.isEmpty()) {
                    err.println("no " + kind.label() + " target " + id + " with a queue dir in the configuration; "
                        + "name its queue directory with --queue-dir or the running daemon with --url");
                    return ExitCode.USAGE;
                }
                outcome = onFiles(dir.get(), s.daemon, config, kind, id, action, request);
            }
            print(out, s.json, action, outcome);
            out.flush();
            FailedReplay.Report r = outcome.report();
            return r.problems().isEmpty() && r.stopped().isEmpty() ? ExitCode.OK : ExitCode.FAILURE;
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return ExitCode.USAGE;
        } catch (IOException e) {
            err.println(action + " failed: " + e.getMessage());
            return ExitCode.FAILURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println(action + " interrupted");
            return ExitCode.FAILURE;
        }
    }

    /** A report and where it was made: "the running daemon at URL" or "the files in DIR". */
    private record Outcome(String target, FailedReplay.Report report, String where, boolean daemon) {
    }

    private static Outcome onFiles(Path dir, DaemonEndpoint daemon, JetsinkConfig config, TargetKind kind, String id,
                                   String action, ReplayJson.Request request) throws IOException, InterruptedException {
        String display = kind.label() + " " + id + ":nats";
        Optional<TargetConfig> target = config.targets().stream().filter(t -> t.kind() == kind && t.id().equals(id))
            .findFirst();
        long limit = target.map(TargetConfig::queueLimit).orElse(100_000L);
        boolean templated = target.map(t -> t.subjectTemplate().hasPlaceholders()).orElse(false);
        SegmentedQueue queue;
        try {
            queue = SegmentedQueue.open(dir, QueueOptions.withLimit(limit));
        } catch (QueueLockedException e) {
            // A daemon holds the queue: it must do the moving, or its index would not know the entries.
            return viaDaemon(daemon, config, kind, id, action, request);
        }
        try (queue) {
            FailedEventStore store = FailedEventStore.open(dir, display, Clock.systemUTC());
            FailedReplay.Report r = action.equals("replay")
                ? FailedReplay.replay(store, queue, request.filter(), request.dryRun(), templated, e -> { })
                : FailedReplay.purge(store, request.filter(), request.dryRun());
            return new Outcome(display, r, "the files in " + dir + " (no daemon holds this queue)", false);
        }
    }

    private static Outcome viaDaemon(DaemonEndpoint daemon, JetsinkConfig config, TargetKind kind, String id,
                                     String action, ReplayJson.Request request) throws IOException, InterruptedException {
        Optional<String> token = config.daemon().adminToken().map(Secret::reveal);
        if (token.isEmpty()) {
            throw new IllegalArgumentException("a running daemon holds this queue; asking it needs the admin token: "
                + "set JETSINK_ADMIN_TOKEN as the daemon has it");
        }
        String trimmed = daemon.base(() -> config);
        URI uri = URI.create(trimmed + AdminHandler.BASE + "/target/" + kind.label() + "/" + id + "/failed/" + action);
        HttpClient http = daemon.client();
        HttpResponse<String> response;
        try {
            response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(10))
                .header("Authorization", "Bearer " + token.get())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(ReplayJson.body(request))).build(),
                HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IOException("a running daemon holds this queue but " + trimmed + " did not answer ("
                + DaemonEndpoint.why(e) + "); pass its address with --url", e);
        }
        JsonNode body;
        try {
            body = Json.READER.readTree(response.body());
        } catch (IOException e) {
            throw new IOException("the daemon at " + trimmed + " answered " + response.statusCode() + " without JSON");
        }
        if (response.statusCode() != 200) {
            throw new IOException("the daemon at " + trimmed + " answered " + response.statusCode() + ": "
                + body.path("error").asText("(no error text)"));
        }
        return new Outcome(body.path("target").asText(), ReplayJson.readReport(body),
            "the running daemon at " + trimmed, true);
    }

    private static void print(PrintWriter out, boolean json, String action, Outcome o) throws IOException {
        FailedReplay.Report r = o.report();
        if (json) {
            ObjectNode n = ReplayJson.report(o.target(), action, r);
            n.put("via", o.daemon() ? "daemon" : "files");
            out.println(Json.PRETTY.writeValueAsString(n));
            return;
        }
        out.printf("%-24s  %-36s  %-40s  %-7s  %s%n", "FAILED-AT", "MSG-ID", "BUCKET/OBJECT EVENT", "REPLAYS", "ERROR");
        for (FailedReplay.Item i : r.items()) {
            out.printf("%-24s  %-36s  %-40s  %-7d  %s%n", i.failedAt(), i.msgId(),
                i.bucket() + "/" + i.object() + " " + i.eventName(), i.replays(), i.errorDetail());
        }
        r.problems().forEach(p -> out.println("problem: " + p));
        String verb = action.equals("replay") ? "replayed" : "purged";
        if (r.dryRun()) {
            out.printf("dry run on %s: %d record(s) of %s would be %s; nothing changed%n", o.where(), r.matched(),
                o.target(), verb);
        } else {
            out.printf("%s %d of %d matched record(s) of %s through %s%s%n", verb, r.done(), r.matched(), o.target(),
                o.where(), action.equals("replay")
                    ? ": queued again with their original msg ids" + (o.daemon() ? "" : "; delivered when jetsink starts")
                    : "");
        }
        r.stopped().ifPresent(s -> out.println("stopped: " + s));
    }
}

package dev.jetsink.server.cli;

import dev.jetsink.internal.queue.QueueInspector;
import dev.jetsink.internal.queue.EntryAttributes;
import dev.jetsink.internal.queue.QueuedEntry;
import dev.jetsink.server.ExitCode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jetsink queue stats|list|show}: inspects a target's queue directory. Read-only and takes
 * no lock, so it is safe while the daemon runs.
 */
@Command(name = "queue", mixinStandardHelpOptions = true,
    description = "Inspect a target's local queue (read-only, safe while the daemon runs).",
    subcommands = {QueueCommand.Stats.class, QueueCommand.ListEntries.class, QueueCommand.Show.class})
public final class QueueCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCode.USAGE;
    }

    static String age(Instant queuedAt) {
        Duration d = Duration.between(queuedAt, Instant.now());
        return d.isNegative() ? "0s" : d.toSeconds() + "s";
    }

    /** Runs {@code body}, turning a missing or unreadable directory into a one-line error. */
    static int inspect(CommandSpec spec, Path dir, IoBody body) {
        try {
            return body.run(QueueInspector.of(dir), spec.commandLine().getOut());
        } catch (IOException e) {
            spec.commandLine().getErr().println("cannot read queue " + dir + ": " + e.getMessage());
            return ExitCode.FAILURE;
        }
    }

    @FunctionalInterface
    interface IoBody {
        int run(QueueInspector inspector, PrintWriter out) throws IOException;
    }

    @Command(name = "stats", mixinStandardHelpOptions = true,
        description = "Live entries, bytes, oldest age, segments and corrupt records of a queue directory.")
    static final class Stats implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Parameters(index = "0", paramLabel = "<dir>", description = "queue directory, e.g. <queue_dir>/notify-nats-primary")
        Path dir;

        @Override
        public Integer call() {
            return inspect(spec, dir, (inspector, out) -> {
                QueueInspector.Stats s = inspector.stats();
                out.printf("live entries:    %d%n", s.live());
                out.printf("bytes:           %d%n", s.bytes());
                out.printf("oldest age:      %s%n", s.oldest().map(QueueCommand::age).orElse("-"));
                out.printf("segments:        %d%n", s.segments().size());
                out.printf("corrupt records: %d%n", s.corrupt());
                for (QueueInspector.SegmentInfo i : s.segments()) {
                    out.printf("  %s  records=%d live=%d bytes=%d corrupt=%d%n",
                        i.file().getFileName(), i.records(), i.live(), i.bytes(), i.corrupt());
                }
                return ExitCode.OK;
            });
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
        description = "One line per live entry, oldest first: id, msg id, age, bucket/object, event.")
    static final class ListEntries implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Parameters(index = "0", paramLabel = "<dir>", description = "queue directory")
        Path dir;

        @Override
        public Integer call() {
            return inspect(spec, dir, (inspector, out) -> {
                out.printf("%-10s %-36s %8s  %s%n", "ID", "MSG-ID", "AGE", "BUCKET/OBJECT EVENT");
                inspector.forEachLive(e -> out.printf("%-10d %-36s %8s  %s/%s %s%n", e.seq(), e.msgId(),
                    age(e.queuedAt()), e.metadata().bucket(), e.metadata().object(), e.metadata().eventName()));
                return ExitCode.OK;
            });
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
        description = "Metadata and payload of one live entry.")
    static final class Show implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Parameters(index = "0", paramLabel = "<dir>", description = "queue directory")
        Path dir;
        @Parameters(index = "1", paramLabel = "<id>", description = "entry id (sequence number) from queue list")
        long seq;

        @Override
        public Integer call() {
            return inspect(spec, dir, (inspector, out) -> {
                Optional<QueueInspector.Shown> shown = inspector.show(seq);
                if (shown.isEmpty()) {
                    spec.commandLine().getErr().println("no live entry " + seq + " in " + dir);
                    return ExitCode.FAILURE;
                }
                QueuedEntry e = shown.get().entry();
                out.printf("id:           %d%n", e.seq());
                out.printf("msg id:       %s%n", e.msgId());
                out.printf("queued at:    %s (%s ago)%n", e.queuedAt(), age(e.queuedAt()));
                out.printf("kind:         %s%n", e.metadata().kind().label());
                out.printf("bucket:       %s%n", e.metadata().bucket());
                out.printf("object:       %s%n", e.metadata().object());
                out.printf("event:        %s%n", e.metadata().eventName());
                out.printf("content type: %s%n", e.metadata().contentType());
                EntryAttributes a = e.attributes();
                if (a.replays() > 0) {
                    out.printf("replays:      %d%n", a.replays());
                }
                a.subject().ifPresent(v -> out.printf("subject:      %s%n", v));
                a.traceparent().ifPresent(v -> out.printf("traceparent:  %s%n", v));
                a.tracestate().ifPresent(v -> out.printf("tracestate:   %s%n", v));
                a.cloudEvent().ifPresent(v -> out.printf("cloudevent:   %s%n", v));
                out.printf("payload (%d bytes):%n%s%n", e.payloadLength(),
                    new String(shown.get().payload(), StandardCharsets.UTF_8));
                return ExitCode.OK;
            });
        }
    }
}

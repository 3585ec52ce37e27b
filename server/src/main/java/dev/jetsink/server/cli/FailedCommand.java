package dev.jetsink.server.cli;

import com.fasterxml.jackson.databind.ObjectReader;
import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.internal.failed.FailedEventStore.StoredFile;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.failed.FailedRecord;
import dev.jetsink.server.ExitCode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jetsink failed list|show|replay|purge}: a target's failed-events store
 * (DESIGN.md "Failed-events store"). {@code list} and {@code show} use the store's static read-only
 * entry points, which take no guard, so they are safe while the daemon runs; a record expired by
 * maintenance between listing and reading is simply skipped. {@code replay} and {@code purge} are
 * {@link FailedReplayCommand}.
 */
@Command(name = "failed", mixinStandardHelpOptions = true,
    description = "Inspect a target's failed-events store, replay its records or purge them.",
    subcommands = {FailedCommand.ListRecords.class, FailedCommand.Show.class, FailedReplayCommand.Replay.class,
        FailedReplayCommand.Purge.class})
public final class FailedCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCode.USAGE;
    }

    /**
     * The target queue directory {@code given} stands for: itself, or its parent when the
     * operator pointed at the {@code failed/} directory. A directory that does not exist is an
     * error rather than an empty store, so a mistyped path is not read as "nothing failed".
     */
    static Path targetDir(Path given) throws NoSuchFileException {
        if (!Files.isDirectory(given)) {
            throw new NoSuchFileException(given.toString(), null, "no such target queue directory");
        }
        boolean isStoreItself = given.getFileName() != null
            && given.getFileName().toString().equals(FailedEventStore.DIRECTORY)
            && !Files.isDirectory(FailedEventStore.directory(given));
        return isStoreItself ? given.toAbsolutePath().getParent() : given;
    }

    /** A record read back, or why it could not be; absent when it vanished meanwhile. */
    private static Optional<Read> read(StoredFile file) {
        try {
            return Optional.of(new Read(file, Optional.of(FailedEventStore.read(file.path())), ""));
        } catch (NoSuchFileException e) {
            return Optional.empty(); // expired or trimmed since the listing: not an error
        } catch (IOException e) {
            return Optional.of(new Read(file, Optional.empty(), e.getMessage()));
        }
    }

    private record Read(StoredFile file, Optional<FailedRecord> record, String problem) {
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
        description = "One line per failed record, oldest first: failed at, msg id, bucket/object event, error.")
    static final class ListRecords implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Parameters(index = "0", paramLabel = "<target-queue-dir>",
            description = "the target's queue directory, e.g. <queue_dir>/notify-nats-primary")
        Path dir;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            List<StoredFile> files;
            Path target;
            try {
                target = targetDir(dir);
                files = FailedEventStore.list(target);
            } catch (IOException e) {
                err.println("cannot read failed store " + FailedEventStore.directory(dir) + ": " + e.getMessage());
                return ExitCode.FAILURE;
            }
            out.printf("%-24s  %-36s  %-40s  %s%n", "FAILED-AT", "MSG-ID", "BUCKET/OBJECT EVENT", "ERROR");
            int shown = 0;
            int unreadable = 0;
            for (StoredFile f : files) {
                Optional<Read> read = read(f);
                if (read.isEmpty()) {
                    continue;
                }
                if (read.get().record().isPresent()) {
                    FailedRecord r = read.get().record().get();
                    out.printf("%-24s  %-36s  %-40s  %s%n", r.failedAt(), r.natsMsgId(),
                        r.bucket() + "/" + r.object() + " " + r.eventName(), r.errorDetail());
                    shown++;
                } else {
                    out.printf("%-24s  %-36s  %-40s  %s%n", f.failedAt(), f.msgId(), "?", "unreadable record " + f.fileName());
                    err.println(read.get().problem());
                    unreadable++;
                }
            }
            out.println(shown + " failed record(s)" + (unreadable > 0 ? ", " + unreadable + " unreadable" : "")
                + " in " + FailedEventStore.directory(target));
            out.flush();
            err.flush();
            return unreadable > 0 ? ExitCode.FAILURE : ExitCode.OK;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
        description = "The full record (JSON, pretty-printed) of one failed event, by file name or msg id.")
    static final class Show implements Callable<Integer> {
        /** A payload is shown as JSON only when it is one JSON document, nothing after it. */
        private static final ObjectReader STRICT = Json.READER.with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

        @Spec
        CommandSpec spec;
        @Parameters(index = "0", paramLabel = "<target-queue-dir>", description = "the target's queue directory")
        Path dir;
        @Parameters(index = "1", paramLabel = "<file-or-msg-id>",
            description = "a record file name (or path) from the failed directory, or the event's Nats-Msg-Id")
        String which;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            List<Path> matches;
            try {
                dir = targetDir(dir);
                matches = find();
            } catch (IOException e) {
                err.println("cannot read failed store " + FailedEventStore.directory(dir) + ": " + e.getMessage());
                return ExitCode.FAILURE;
            }
            if (matches.isEmpty()) {
                err.println("no failed record " + which + " in " + FailedEventStore.directory(dir));
                return ExitCode.FAILURE;
            }
            for (Path file : matches) {
                try {
                    out.println(render(FailedEventStore.read(file)));
                } catch (IOException e) {
                    err.println("cannot read failed record " + file + ": " + e.getMessage());
                    return ExitCode.FAILURE;
                }
            }
            out.flush();
            return ExitCode.OK;
        }

        /** A file named directly, else the records whose msg id matches (normally one). */
        private List<Path> find() throws IOException {
            Path named = FailedEventStore.directory(dir).resolve(which);
            if (which.endsWith(".json") && Files.isRegularFile(named)) {
                return List.of(named);
            }
            if (which.endsWith(".json") && Files.isRegularFile(Path.of(which))) {
                return List.of(Path.of(which));
            }
            List<StoredFile> files = FailedEventStore.list(dir);
            List<Path> byName = files.stream().filter(f -> f.msgId().equals(which)).map(StoredFile::path).toList();
            if (!byName.isEmpty()) {
                return byName;
            }
            // Ids with characters the file name cannot carry: compare the recorded id itself.
            List<Path> byContent = new ArrayList<>();
            for (StoredFile f : files) {
                read(f).flatMap(Read::record).filter(r -> r.natsMsgId().equals(which)).ifPresent(r -> byContent.add(f.path()));
            }
            return byContent;
        }

        /**
         * The failed record's fields in their documented order ({@code FailedRecordFormat}), the
         * payload as JSON when it is JSON.
         */
        static String render(FailedRecord r) throws JsonProcessingException {
            ObjectNode node = Json.object();
            node.put("id", r.id());
            node.put("nats_msg_id", r.natsMsgId());
            node.put("target", r.target());
            node.put("kind", r.kind().label());
            node.put("subject", r.subject());
            node.put("bucket", r.bucket());
            node.put("object", r.object());
            node.put("event_name", r.eventName());
            node.put("queued_at", r.queuedAt().toString());
            node.put("failed_at", r.failedAt().toString());
            node.put("error_class", r.errorClass());
            node.put("error_detail", r.errorDetail());
            node.put("retry_count", r.retryCount());
            node.put("content_type", r.contentType());
            node.put("replays", r.replays());
            node.set("payload", payload(r.payload()));
            return Json.PRETTY.writeValueAsString(node);
        }

        private static JsonNode payload(byte[] bytes) {
            String text = new String(bytes, StandardCharsets.UTF_8);
            try {
                JsonNode node = STRICT.readTree(text);
                return node.isMissingNode() ? Json.NODES.textNode(text) : node;
            } catch (JsonProcessingException e) {
                // Not JSON (the store keeps such payloads as text): show it as a string.
                return Json.NODES.textNode(text);
            }
        }
    }
}

package dev.jetsink.internal.failed;

import dev.jetsink.QueueFullException;
import dev.jetsink.internal.failed.FailedEventStore.StoredFile;
import dev.jetsink.internal.queue.EntryAttributes;
import dev.jetsink.internal.queue.QueueStore;
import dev.jetsink.internal.queue.QueuedEntry;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an operator does after a failure: replays records of a target's failed store
 * into its queue, or purges them. Never automatic (DESIGN.md "Replay and purge") and only ever
 * started by a person, through the CLI or the admin API.
 *
 * <p>A replayed record goes back into the queue <em>with its original {@code Nats-Msg-Id}</em> and
 * a replay count one higher, and its file leaves {@code failed/} only after the queue append is
 * durable: a crash at any point leaves the event in one place or both (the stream's duplicate
 * window drops the second publish), never in neither. Records are taken oldest first, in chunks
 * whose appends share a group commit.
 */
public final class FailedReplay {

    private static final Logger log = LoggerFactory.getLogger(FailedReplay.class);
    /** Appends in flight at once: one group commit covers them. */
    private static final int CHUNK = 256;
    /** Bound on waiting for one chunk to be durable; a disk that hangs longer stops the replay. */
    private static final Duration DURABLE_BOUND = Duration.ofSeconds(30);

    private FailedReplay() {
    }

    /**
     * Which records: {@code failed_at} at or after {@code since} and before {@code until}, an
     * {@code error_detail} containing {@code reason} (case-insensitive), at most {@code limit}
     * of them, oldest first.
     */
    public record Filter(Optional<Instant> since, Optional<Instant> until, Optional<String> reason, OptionalInt limit) {
        public static final Filter ALL = new Filter(Optional.empty(), Optional.empty(), Optional.empty(), OptionalInt.empty());

        public Filter {
            Objects.requireNonNull(since, "since");
            Objects.requireNonNull(until, "until");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(limit, "limit");
            if (limit.isPresent() && limit.getAsInt() < 1) {
                throw new IllegalArgumentException("limit must be at least 1, not " + limit.getAsInt());
            }
            if (since.isPresent() && until.isPresent() && !since.get().isBefore(until.get())) {
                throw new IllegalArgumentException("since (" + since.get() + ") must be before until (" + until.get() + ")");
            }
        }

        boolean inTime(Instant failedAt) {
            return since.map(s -> !failedAt.isBefore(s)).orElse(true) && until.map(failedAt::isBefore).orElse(true);
        }

        boolean forReason(FailedRecord r) {
            return reason.map(text -> r.errorDetail().toLowerCase(Locale.ROOT).contains(text.toLowerCase(Locale.ROOT)))
                .orElse(true);
        }
    }

    /** One record a replay or purge took (or, in a dry run, would take). */
    public record Item(String file, String msgId, Instant failedAt, String bucket, String object, String eventName,
                       String errorDetail, int replays) {
        static Item of(StoredFile f, FailedRecord r) {
            return new Item(f.fileName(), r.natsMsgId(), r.failedAt(), r.bucket(), r.object(), r.eventName(),
                r.errorDetail(), r.replays());
        }
    }

    /**
     * What happened.
     *
     * @param dryRun   nothing was changed; {@code items} are what would have been taken
     * @param matched  records the filter selected
     * @param done     records replayed (queued and gone from {@code failed/}) or purged
     * @param items    the records taken, oldest first (those {@code done}, or all matched in a dry run)
     * @param problems records skipped or left in both places, one sentence each
     * @param stopped  why the run ended before every matched record was done (queue full, disk error)
     */
    public record Report(boolean dryRun, int matched, int done, List<Item> items, List<String> problems,
                         Optional<String> stopped) {
        public Report {
            items = List.copyOf(items);
            problems = List.copyOf(problems);
        }
    }

    private record Selected(StoredFile file, FailedRecord record) {
    }

    /**
     * Replays the records {@code filter} selects from {@code store} into {@code queue}, the same
     * target's. {@code queued} sees each entry once it is durable (the running target wakes its
     * dispatcher there). {@code keepSubject} (a target whose subject is a template) stores each
     * record's subject with its entry, so a replayed event goes where it was routed at first;
     * otherwise the target's configured subject applies, as for any entry.
     */
    public static Report replay(FailedEventStore store, QueueStore queue, Filter filter, boolean dryRun,
                                boolean keepSubject, Consumer<QueuedEntry> queued) throws IOException {
        List<String> problems = new ArrayList<>();
        List<Selected> selected = select(store, filter, problems);
        if (dryRun) {
            return new Report(true, selected.size(), 0, items(selected), problems, Optional.empty());
        }
        List<Item> done = new ArrayList<>();
        Optional<String> stopped = Optional.empty();
        for (int from = 0; from < selected.size() && stopped.isEmpty(); from += CHUNK) {
            List<Selected> chunk = selected.subList(from, Math.min(selected.size(), from + CHUNK));
            List<CompletableFuture<QueuedEntry>> appends = new ArrayList<>(chunk.size());
            for (Selected s : chunk) {
                appends.add(append(queue, s.record(), keepSubject));
            }
            List<StoredFile> durable = new ArrayList<>(chunk.size());
            for (int i = 0; i < chunk.size(); i++) {
                Selected s = chunk.get(i);
                try {
                    QueuedEntry e = appends.get(i).get(DURABLE_BOUND.toMillis(), TimeUnit.MILLISECONDS);
                    queued.accept(e);
                    durable.add(s.file());
                    done.add(Item.of(s.file(), s.record()));
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof QueueFullException full) {
                        stopped = Optional.of("queue full at queue_limit " + full.limit() + " after " + done.size()
                            + " replayed; the rest stay in failed/ (replay again once the queue has drained)");
                    } else if (cause instanceof IllegalArgumentException bad) {
                        problems.add(s.file().fileName() + ": cannot be queued: " + bad.getMessage());
                    } else if (stopped.isEmpty()) {
                        stopped = Optional.of("queue append failed after " + done.size() + " replayed: " + cause.getMessage());
                    }
                } catch (TimeoutException e) {
                    stopped = Optional.of("queue not durable within " + DURABLE_BOUND.toSeconds() + " s after "
                        + done.size() + " replayed");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stopped = Optional.of("interrupted after " + done.size() + " replayed");
                    break;
                }
            }
            // Only now, with every append of the chunk durable, do the files leave failed/.
            try {
                store.remove(durable);
            } catch (IOException e) {
                problems.add("queued again, but failed records could not all be deleted (" + e.getMessage()
                    + "); they are in failed/ and in the queue: replaying them again is harmless (same msg ids)");
                stopped = stopped.or(() -> Optional.of("failed store not writable"));
            }
        }
        log.info("failed records replayed into the queue: target=\"{}\" matched={} replayed={} problems={}{}",
            store.target(), selected.size(), done.size(), problems.size(), stopped.map(s -> " stopped=\"" + s + "\"").orElse(""));
        return new Report(false, selected.size(), done.size(), done, problems, stopped);
    }

    /**
     * Appends one record; a record the queue cannot store (a subject or metadata out of range, a
     * record over the size limit) fails its own future, so the loop reports it and goes on.
     */
    private static CompletableFuture<QueuedEntry> append(QueueStore queue, FailedRecord r, boolean keepSubject) {
        try {
            EntryAttributes attributes = EntryAttributes.replays(r.replays() + 1)
                .withSubject(keepSubject ? Optional.of(r.subject()) : Optional.empty())
                .withCloudEvent(r.cloudEvent())
                .withOrderKey(r.orderKey());
            return queue.append(r.metadata(), r.payload(), Optional.of(r.natsMsgId()), attributes);
        } catch (IllegalArgumentException bad) {
            return CompletableFuture.failedFuture(bad);
        }
    }

    /** Deletes the records {@code filter} selects (or, in a dry run, lists them). */
    public static Report purge(FailedEventStore store, Filter filter, boolean dryRun) throws IOException {
        List<String> problems = new ArrayList<>();
        List<Selected> selected = select(store, filter, problems);
        if (!dryRun) {
            store.remove(selected.stream().map(Selected::file).toList());
            log.warn("failed records purged by an operator: target=\"{}\" purged={}", store.target(), selected.size());
        }
        return new Report(dryRun, selected.size(), dryRun ? 0 : selected.size(), items(selected), problems,
            Optional.empty());
    }

    // Oldest first; the time filter uses the file name, the reason needs the record itself.
    private static List<Selected> select(FailedEventStore store, Filter filter, List<String> problems) throws IOException {
        List<Selected> out = new ArrayList<>();
        for (StoredFile f : store.files()) {
            if (filter.limit().isPresent() && out.size() >= filter.limit().getAsInt()) {
                break;
            }
            if (!filter.inTime(f.failedAt())) {
                continue;
            }
            FailedRecord r;
            try {
                r = FailedEventStore.read(f.path());
            } catch (NoSuchFileException e) {
                continue; // expired by maintenance meanwhile
            } catch (IOException e) {
                problems.add(f.fileName() + ": unreadable, left in place: " + e.getMessage());
                continue;
            }
            if (filter.forReason(r)) {
                out.add(new Selected(f, r));
            }
        }
        return out;
    }

    private static List<Item> items(List<Selected> selected) {
        return selected.stream().map(s -> Item.of(s.file(), s.record())).toList();
    }
}

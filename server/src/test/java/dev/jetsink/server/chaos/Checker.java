package dev.jetsink.server.chaos;

import dev.jetsink.Delivery;
import dev.jetsink.NotDeliveredException;
import dev.jetsink.OrderMode;
import dev.jetsink.Receipt;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.failed.FailedRecord;
import dev.jetsink.lifecycle.Outcome;
import dev.jetsink.testkit.StoredMessage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where every event ended up, once the faults are healed and the queues drained. On the JetStream
 * path each acknowledged event and each receipt is in the stream exactly once (by content, and
 * with a msg id no other message has), or in a failed store with its reason; the stream holds
 * nothing else. On the Core path DESIGN.md promises no more than that a queued entry is published
 * and confirmed by a flush (no dedupe, no delivery to a subscriber that was away): the checker
 * asserts that nothing foreign arrives there and reports how many were seen, missing and doubled.
 * Each object's stored events are checked for their acceptance order ({@link OrderCheck}); under
 * {@code ORDER=key} a break is a problem, under {@code none} it is only reported.
 */
final class Checker {

    private static final Pattern TOKEN = Pattern.compile("cx[0-9s]+n[0-9]+(?:b[0-9]+)?x");

    /** What a failed record following an older failed event of its object says ({@code ORDER=key}). */
    static final String FOLLOWER_DETAIL = Outcome.Cause.FOLLOWS_FAILED_EVENT.label();

    /**
     * The verdict; {@code order} is the per-object order of the stream, {@code followers} the failed
     * events that followed an older failed event of their object there.
     */
    record Result(int events, int acked, int lost, int duplicates, int failed, Set<String> lostTokens,
                  int diverged, OrderCheck.Verdict order, int followers, List<String> problems, List<String> report) {
    }

    /**
     * How many of the {@code lost} events some replica holds although the stream's leader does not:
     * such an event reached the broker, and the broker's replicas disagree about it (nats-server
     * 2.9.10 after a paused leader, RELIABILITY.md finding 3).
     */
    static Set<String> heldByAReplica(Set<String> lost, Collection<List<StoredMessage>> replicaViews) {
        Set<String> held = new HashSet<>();
        for (List<StoredMessage> view : replicaViews) {
            for (StoredMessage m : view) {
                held.addAll(tokens(m.data()));
            }
        }
        Set<String> out = new TreeSet<>(lost);
        out.retainAll(held);
        return out;
    }

    /** First and last sequence, message count, and the sequences missing between them. */
    static String streamShape(List<StoredMessage> stream) {
        if (stream.isEmpty()) {
            return "stream empty";
        }
        long first = stream.stream().mapToLong(StoredMessage::seq).min().orElseThrow();
        long last = stream.stream().mapToLong(StoredMessage::seq).max().orElseThrow();
        return "stream first_seq=" + first + " last_seq=" + last + " messages=" + stream.size()
            + " missing_between=" + (last - first + 1 - stream.size());
    }

    static Set<String> tokens(byte[] data) {
        Set<String> out = new HashSet<>();
        Matcher m = TOKEN.matcher(new String(data, StandardCharsets.UTF_8));
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    static Result check(Ledger ledger, List<StoredMessage> stream, Collection<byte[]> coreSeen, List<Path> roots,
                        OrderMode order) throws IOException {
        return check(ledger, stream, coreSeen, roots, Set.of(), order, 0);
    }

    /**
     * As above, where {@code diverged} are acknowledged events the stream's leader lacks but another
     * replica holds ({@link #heldByAReplica}): jetsink delivered them and the broker's replicas lost
     * agreement about them (nats-server 2.9.10 after a paused leader, RELIABILITY.md finding 3). They
     * are counted and reported, not failed; an event no replica holds is lost. {@code order} is the
     * order the targets promise: under {@link OrderMode#KEY} an order break is a problem, and so is
     * a {@code Jetsink-Sequence} gap beyond the failed events and the {@code unreadCopies} (the
     * duplicates whose stored copy's number the daemons logged they could not read back).
     */
    static Result check(Ledger ledger, List<StoredMessage> stream, Collection<byte[]> coreSeen, List<Path> roots,
                        Set<String> diverged, OrderMode order, long unreadCopies) throws IOException {
        List<String> problems = new ArrayList<>();
        List<String> report = new ArrayList<>();
        Map<String, Ledger.Route> sent = ledger.sent();

        Map<String, Integer> copies = new HashMap<>();
        Map<String, String> msgIdOf = new HashMap<>();
        Map<String, Integer> byMsgId = new HashMap<>();
        List<OrderCheck.Stored> stored = new ArrayList<>();
        int foreign = 0;
        for (StoredMessage m : stream) {
            Set<String> ts = tokens(m.data());
            String id = m.msgId().orElse("");
            byMsgId.merge(id, 1, Integer::sum);
            if (ts.size() != 1 || sent.get(ts.iterator().next()) != Ledger.Route.JETSTREAM) {
                foreign++;
                if (foreign <= 5) {
                    problems.add("stream message #" + m.seq() + " is no event of the JetStream path: tokens " + ts);
                }
                continue;
            }
            String t = ts.iterator().next();
            copies.merge(t, 1, Integer::sum);
            msgIdOf.put(t, id);
            stored.add(new OrderCheck.Stored(m.seq(), t, m.header("Jetsink-Sequence").map(Long::parseLong).orElse(0L)));
        }
        if (foreign > 0) {
            problems.add(foreign + " stream messages that no sender sent on the JetStream path");
        }
        long sharedIds = byMsgId.entrySet().stream().filter(e -> e.getValue() > 1 || e.getKey().isEmpty()).count();
        if (sharedIds > 0) {
            problems.add(sharedIds + " msg ids carried by more than one message (or missing)");
        }

        Map<String, String> failedReason = new HashMap<>();
        for (Path root : roots) {
            failedReason.putAll(failedRecords(root));
        }

        int lost = 0;
        int divergedCount = 0;
        int duplicates = 0;
        int failed = 0;
        int followers = 0;
        Set<String> lostTokens = new TreeSet<>();
        Set<String> duplicated = new TreeSet<>();
        for (Map.Entry<String, Ledger.Route> e : sent.entrySet()) {
            if (e.getValue() != Ledger.Route.JETSTREAM) {
                continue;
            }
            String t = e.getKey();
            int c = copies.getOrDefault(t, 0);
            if (c > 1) {
                duplicates++;
                duplicated.add(t);
            } else if (c == 0 && failedReason.containsKey(t)) {
                failed++;
                if (failedReason.get(t).startsWith(FOLLOWER_DETAIL)) {
                    followers++;
                }
                report.add("failed " + t + ": " + failedReason.get(t));
            } else if (c == 0 && ledger.isAcked(t) && diverged.contains(t)) {
                divergedCount++;
            } else if (c == 0 && ledger.isAcked(t)) {
                lost++;
                lostTokens.add(t);
            }
        }
        if (lost > 0) {
            problems.add(lost + " acknowledged events lost: " + lostTokens.stream().limit(20).toList());
        }
        if (duplicates > 0) {
            problems.add(duplicates + " events stored more than once: " + duplicated.stream().limit(20).toList());
        }
        if (divergedCount > 0) {
            report.add(divergedCount + " acknowledged events the leader's stream lacks and another replica holds (the"
                + " broker's replicas diverged; jetsink delivered them): " + diverged.stream().limit(20).toList());
        }

        report.add("failed " + failed + ", of which following a failed event of their object: " + followers);
        OrderCheck.Verdict orderVerdict = OrderCheck.of(stored);
        report.add(orderVerdict.describe() + " (order=" + order.label() + ")");
        orderVerdict.first().forEach(b -> report.add(b.describe()));
        report.addAll(orderVerdict.gaps());
        if (order == OrderMode.KEY && orderVerdict.numberGaps() > failed + unreadCopies) {
            problems.add(orderVerdict.numberGaps() + " Jetsink-Sequence gaps under ORDER=key, more than the "
                + failed + " failed events and " + unreadCopies + " duplicates whose stored copy was not read back explain: "
                + orderVerdict.gaps());
        }
        if (order == OrderMode.KEY && orderVerdict.numberRepeats() > 0) {
            problems.add(orderVerdict.numberRepeats() + " events under ORDER=key numbered at or below their object's last"
                + " number (a consumer would skip them): " + orderVerdict.gaps());
        }
        if (order == OrderMode.KEY && orderVerdict.breaks() > 0) {
            problems.add(orderVerdict.breaks() + " events stored after a newer event of their object under ORDER=key: "
                + orderVerdict.first().stream().map(OrderCheck.Break::describe).toList());
        }
        report.add(streamShape(stream));
        Map<Long, StoredMessage> bySeq = new HashMap<>();
        stream.forEach(m -> bySeq.put(m.seq(), m));
        int seqTakenByAnother = 0;
        int receiptsOfDiverged = 0;
        int receiptsDelivered = 0;
        int receiptsDuplicate = 0;
        for (Map.Entry<String, Receipt> e : ledger.receipts().entrySet()) {
            CompletableFuture<Delivery> f = e.getValue().delivered();
            if (!f.isDone()) {
                problems.add("receipt of " + e.getKey() + " (" + e.getValue().msgId() + ") never completed");
                continue;
            }
            try {
                Delivery d = f.join();
                receiptsDelivered++;
                if (d.duplicate()) {
                    receiptsDuplicate++;
                }
                if (diverged.contains(e.getKey()) && !copies.containsKey(e.getKey())) {
                    receiptsOfDiverged++;
                } else if (copies.getOrDefault(e.getKey(), 0) != 1 || !e.getValue().msgId().equals(msgIdOf.get(e.getKey()))) {
                    // what the acknowledged sequence holds now tells a broker that took back an
                    // acknowledged write (another event at that sequence) from a gap
                    StoredMessage now = bySeq.get(d.streamSeq());
                    if (now != null && !tokens(now.data()).contains(e.getKey())) {
                        seqTakenByAnother++;
                    }
                    problems.add("receipt of " + e.getKey() + " says delivered as " + d + " with msg id "
                        + e.getValue().msgId() + ", the stream holds " + copies.getOrDefault(e.getKey(), 0)
                        + " copies with msg id " + msgIdOf.get(e.getKey()) + "; sequence " + d.streamSeq() + " now holds "
                        + (now == null ? "nothing" : tokens(now.data()) + " (msg id " + now.msgId().orElse("none") + ")"));
                }
            } catch (RuntimeException ex) {
                Throwable cause = ex.getCause() == null ? ex : ex.getCause();
                if (!(cause instanceof NotDeliveredException nd && nd.reason() == NotDeliveredException.Reason.REJECTED
                    && failedReason.containsKey(e.getKey()))) {
                    problems.add("receipt of " + e.getKey() + " failed without a failed record: " + cause);
                }
            }
        }
        report.add("receipts=" + ledger.receipts().size() + " delivered=" + receiptsDelivered
            + " of_which_duplicate_acks=" + receiptsDuplicate + " of_which_on_a_diverged_replica_only=" + receiptsOfDiverged);
        if (seqTakenByAnother > 0) {
            problems.add(seqTakenByAnother + " receipts name a stream sequence that now holds another event: the"
                + " stream acknowledged those writes and later gave their sequences to other messages");
        }

        // Core path: what was seen on the subject, against what was acknowledged
        Map<String, Integer> coreCopies = new HashMap<>();
        int coreForeign = 0;
        for (byte[] body : coreSeen) {
            Set<String> ts = tokens(body);
            if (ts.size() != 1 || sent.get(ts.iterator().next()) != Ledger.Route.CORE) {
                coreForeign++;
                continue;
            }
            coreCopies.merge(ts.iterator().next(), 1, Integer::sum);
        }
        if (coreForeign > 0) {
            problems.add(coreForeign + " Core messages that no sender sent on the Core path");
        }
        Set<String> coreAcked = ledger.acked(Ledger.Route.CORE);
        long coreOnce = coreAcked.stream().filter(t -> coreCopies.getOrDefault(t, 0) == 1).count();
        long coreMissing = coreAcked.stream().filter(t -> !coreCopies.containsKey(t)).count();
        long coreDoubled = coreCopies.values().stream().filter(c -> c > 1).count();
        report.add("core acked=" + coreAcked.size() + " seen_once=" + coreOnce + " not_seen=" + coreMissing
            + " seen_more_than_once=" + coreDoubled + " (reported, not asserted: the Core path promises no more)");

        return new Result(sent.size(), ledger.ackedCount(), lost, duplicates, failed, lostTokens, divergedCount,
            orderVerdict, followers, problems, report);
    }

    /** Every failed record under {@code root}, by the event token of its payload, with its reason. */
    private static Map<String, String> failedRecords(Path root) throws IOException {
        Map<String, String> out = new HashMap<>();
        List<Path> dirs;
        try (Stream<Path> walk = Files.walk(root)) {
            dirs = walk.filter(p -> Files.isDirectory(p) && p.getFileName().toString().equals(FailedEventStore.DIRECTORY))
                .toList();
        }
        for (Path dir : dirs) {
            for (FailedEventStore.StoredFile f : FailedEventStore.list(dir.getParent())) {
                FailedRecord r = FailedEventStore.read(f.path());
                for (String t : tokens(r.payload())) {
                    out.put(t, r.errorDetail() + " (" + f.path().getFileName() + ")");
                }
            }
        }
        return out;
    }
}

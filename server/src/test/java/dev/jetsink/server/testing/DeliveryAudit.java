package dev.jetsink.server.testing;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.queue.QueueInspector;
import dev.jetsink.testkit.StoredMessage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where every acknowledged event of an {@link EventLoad} ended up: the stream (once or more), the
 * failed store, the live queue, or nowhere (lost). The invariant is that each one is in
 * exactly one of the stream, the failed store or the live queue.
 */
public final class DeliveryAudit {

    private DeliveryAudit() {
    }

    /**
     * One scenario's result.
     *
     * @param acknowledged events answered 200
     * @param inStreamOnce acknowledged events stored exactly once
     * @param duplicated acknowledged events stored more than once
     * @param extraCopies messages beyond the first copy of any event
     * @param lost acknowledged events found nowhere
     * @param failedStore acknowledged events in the failed store
     * @param queued acknowledged events still in the live queue
     * @param messages messages in the stream
     * @param distinctMsgIds distinct {@code Nats-Msg-Id}s in the stream
     * @param lostEvents the lost event numbers (first few are printed)
     * @param duplicatedEvents the duplicated event numbers
     * @param failedMessages the running daemon's {@code failed_messages} gauge
     */
    public record Tally(String scenario, int acknowledged, int inStreamOnce, int duplicated, int extraCopies, int lost,
                 int failedStore, int queued, int messages, int distinctMsgIds, Set<Integer> lostEvents,
                 Set<Integer> duplicatedEvents, long failedMessages) {

        public String line() {
            return "fault scenario=" + scenario + " acknowledged=" + acknowledged + " in_stream=" + inStreamOnce
                + " duplicates=" + duplicated + " extra_copies=" + extraCopies + " lost=" + lost
                + " failed_store=" + failedStore + " queued=" + queued + " messages=" + messages
                + " distinct_msg_ids=" + distinctMsgIds + " failed_messages=" + failedMessages
                + (lostEvents.isEmpty() ? "" : " lost_events=" + lostEvents.stream().limit(20).toList());
        }

        /** Prints the summary line to stdout (failsafe keeps it in the test's output file). */
        public Tally print() {
            System.out.println(line());
            return this;
        }
    }

    /** Classifies {@code acknowledged} against the stream's messages and the target queue directory. */
    public static Tally of(String scenario, Set<Integer> acknowledged, List<StoredMessage> stream, Path targetQueue,
                    long failedMessages) throws IOException {
        Map<Integer, Integer> copies = new HashMap<>();
        Set<String> msgIds = new HashSet<>();
        for (StoredMessage m : stream) {
            m.msgId().ifPresent(msgIds::add);
            JsonNode json = Json.READER.readTree(m.data());
            int n = EventLoad.numberOf(json.path("Key").asText(""));
            if (n >= 0) {
                copies.merge(n, 1, Integer::sum);
            }
        }
        Set<Integer> queued = new HashSet<>();
        Set<Integer> failed = new HashSet<>();
        if (Files.isDirectory(targetQueue)) {
            QueueInspector.of(targetQueue).forEachLive(e ->
                queued.add(EventLoad.numberOf(e.metadata().bucket() + "/" + e.metadata().object())));
            for (FailedEventStore.StoredFile f : FailedEventStore.list(targetQueue)) {
                var r = FailedEventStore.read(f.path());
                failed.add(EventLoad.numberOf(r.bucket() + "/" + r.object()));
            }
        }
        int once = 0;
        int inFailed = 0;
        int inQueue = 0;
        Set<Integer> lost = new TreeSet<>();
        Set<Integer> duplicated = new TreeSet<>();
        for (int n : acknowledged) {
            int c = copies.getOrDefault(n, 0);
            if (c == 1) {
                once++;
            } else if (c > 1) {
                duplicated.add(n);
            } else if (failed.contains(n)) {
                inFailed++;
            } else if (queued.contains(n)) {
                inQueue++;
            } else {
                lost.add(n);
            }
        }
        int extra = copies.values().stream().mapToInt(c -> c - 1).sum();
        return new Tally(scenario, acknowledged.size(), once, duplicated.size(), extra, lost.size(), inFailed, inQueue,
            stream.size(), msgIds.size(), lost, duplicated, failedMessages);
    }
}

package dev.jetsink.server.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.OrderMode;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.failed.FailedRecord;
import dev.jetsink.testkit.StoredMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The campaign's checker finds what it exists to find: a lost event, a doubled one, a stranger, an
 * event stored after a newer one of its object.
 */
class CheckerTest {

    @TempDir
    Path root;

    private static StoredMessage message(long seq, String msgId, String body) {
        return new StoredMessage(seq, Stage.SUBJECT, Map.of(StoredMessage.MSG_ID_HEADER, List.of(msgId)),
            body.getBytes(StandardCharsets.UTF_8));
    }

    private static Ledger ackedOnTheJetStreamPath(String... tokens) {
        Ledger ledger = new Ledger();
        for (String t : tokens) {
            ledger.sent(t, Ledger.Route.JETSTREAM);
            ledger.acked(t);
        }
        return ledger;
    }

    @Test
    void lostDoubledAndForeignMessagesAreEachReported() throws Exception {
        Ledger ledger = ackedOnTheJetStreamPath("cx0n0x", "cx0n1x", "cx0n2x");
        ledger.sent("cx0n3x", Ledger.Route.JETSTREAM);
        List<StoredMessage> stream = List.of(
            message(1, "a", "{\"Key\":\"photos/chaos/cx0n0x 1.jpg\"}"),
            message(2, "b", "{\"Key\":\"photos/chaos/cx0n1x 1.jpg\"}"),
            message(3, "c", "{\"Key\":\"photos/chaos/cx0n1x 1.jpg\"}"),
            message(4, "d", "{\"Key\":\"photos/other.jpg\"}"));

        Checker.Result r = Checker.check(ledger, stream, List.of(), List.of(root), OrderMode.KEY);

        assertThat(r.lost()).as("cx0n2x was acknowledged and is nowhere").isEqualTo(1);
        assertThat(r.duplicates()).as("cx0n1x is stored twice").isEqualTo(1);
        assertThat(r.problems()).anyMatch(p -> p.contains("no event of the JetStream path"));
        assertThat(r.problems()).anyMatch(p -> p.contains("cx0n2x"));
        assertThat(r.events()).isEqualTo(4);
        assertThat(r.acked()).isEqualTo(3);
    }

    @Test
    void anAcknowledgedEventFoundNowhereButStoredOnceIsClean() throws Exception {
        Ledger ledger = new Ledger();
        ledger.sent("cx1n7b2x", Ledger.Route.JETSTREAM);
        ledger.acked("cx1n7b2x");
        ledger.sent("cx2n1x", Ledger.Route.CORE);
        ledger.acked("cx2n1x");
        Files.createDirectories(root.resolve("x"));

        Checker.Result r = Checker.check(ledger, List.of(message(1, "a", "{\"requestID\":\"cx1n7b2x\"}")),
            List.of("{\"requestID\":\"cx2n1x\"}".getBytes(StandardCharsets.UTF_8)), List.of(root), OrderMode.KEY);

        assertThat(r.problems()).isEmpty();
        assertThat(r.lost()).isZero();
        assertThat(r.duplicates()).isZero();
    }

    @Test
    void lostEventsHeldByAnotherReplicaAreCounted() {
        List<StoredMessage> n1 = List.of(message(1, "a", "{\"requestID\":\"cx0n1x\"}"));
        List<StoredMessage> n2 = List.of(message(1, "a", "{\"requestID\":\"cx0n1x\"}"),
            message(2, "b", "{\"requestID\":\"cx0n2x\"}"));

        assertThat(Checker.heldByAReplica(java.util.Set.of("cx0n2x", "cx0n3x"), List.of(n1, n2)))
            .as("cx0n2x is on n2, cx0n3x on none").containsExactly("cx0n2x");
        assertThat(Checker.heldByAReplica(java.util.Set.of("cx0n2x"), List.of(n1))).isEmpty();
    }

    @Test
    void anEventOnlyADivergedReplicaHoldsIsCountedApartAndOneNoReplicaHoldsStaysLost() throws Exception {
        Ledger ledger = ackedOnTheJetStreamPath("cx0n0x", "cx0n1x", "cx0n2x");
        List<StoredMessage> leader = List.of(message(1, "a", "{\"requestID\":\"cx0n0x\"}"));

        Checker.Result r = Checker.check(ledger, leader, List.of(), List.of(root), java.util.Set.of("cx0n1x"), OrderMode.KEY, 0);

        assertThat(r.diverged()).as("cx0n1x is on another replica").isEqualTo(1);
        assertThat(r.lost()).as("cx0n2x is on none").isEqualTo(1);
        assertThat(r.lostTokens()).containsExactly("cx0n2x");
        assertThat(r.problems()).singleElement().asString().contains("cx0n2x").doesNotContain("cx0n1x");
        assertThat(r.report()).anyMatch(line -> line.contains("replicas diverged") && line.contains("cx0n1x"));

        Checker.Result clean = Checker.check(ledger, leader, List.of(), List.of(root), java.util.Set.of("cx0n1x", "cx0n2x"),
            OrderMode.KEY, 0);
        assertThat(clean.problems()).isEmpty();
        assertThat(clean.lost()).isZero();
        assertThat(clean.diverged()).isEqualTo(2);
    }

    @Test
    void aSequenceGapIsAProblemUnlessADaemonSaidItCouldNotReadAStoredCopysNumber() throws Exception {
        String later = "cx0n" + SenderForm.KEYS + "x"; // the same object's next request
        Ledger ledger = ackedOnTheJetStreamPath("cx0n0x", later);
        List<StoredMessage> stream = List.of(numbered(1, "a", "cx0n0x", 1), numbered(2, "b", later, 3));

        Checker.Result strict = Checker.check(ledger, stream, List.of(), List.of(root), java.util.Set.of(), OrderMode.KEY, 0);
        assertThat(strict.problems()).singleElement().asString().contains("1 Jetsink-Sequence gaps");

        Checker.Result explained = Checker.check(ledger, stream, List.of(), List.of(root), java.util.Set.of(), OrderMode.KEY, 1);
        assertThat(explained.problems()).isEmpty();
    }

    @Test
    void aRepeatedSequenceNumberIsAProblemWhateverADaemonSaid() throws Exception {
        String later = "cx0n" + SenderForm.KEYS + "x";
        Ledger ledger = ackedOnTheJetStreamPath("cx0n0x", later);
        List<StoredMessage> stream = List.of(numbered(1, "a", "cx0n0x", 1), numbered(2, "b", later, 1));

        Checker.Result r = Checker.check(ledger, stream, List.of(), List.of(root), java.util.Set.of(), OrderMode.KEY, 5);
        assertThat(r.problems()).singleElement().asString().contains("1 events under ORDER=key numbered at or below");
    }

    private static StoredMessage numbered(long seq, String msgId, String token, long number) {
        return new StoredMessage(seq, Stage.SUBJECT, Map.of(StoredMessage.MSG_ID_HEADER, List.of(msgId),
            "Jetsink-Sequence", List.of(Long.toString(number))), ("{\"requestID\":\"" + token + "\"}").getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theStreamShapeCountsTheSequencesMissingBetweenFirstAndLast() {
        List<StoredMessage> stream = List.of(message(3, "a", "x"), message(4, "b", "y"), message(7, "c", "z"));
        assertThat(Checker.streamShape(stream)).isEqualTo("stream first_seq=3 last_seq=7 messages=3 missing_between=2");
        assertThat(Checker.streamShape(List.of())).isEqualTo("stream empty");
    }

    /** Stored events in stream order from 1: a token per message. */
    private static List<OrderCheck.Stored> stored(String... tokens) {
        List<OrderCheck.Stored> out = new ArrayList<>();
        for (int i = 0; i < tokens.length; i++) {
            out.add(new OrderCheck.Stored(i + 1, tokens[i]));
        }
        return out;
    }

    @Test
    void eachObjectsSequenceNumbersMustGoOneTwoThree() {
        int k = SenderForm.KEYS;
        List<OrderCheck.Stored> contiguous = List.of(new OrderCheck.Stored(1, "cx0n0x", 1), new OrderCheck.Stored(2, "cx0n1x", 1),
            new OrderCheck.Stored(3, "cx0n" + k + "x", 2), new OrderCheck.Stored(4, "cx0n" + 2 * k + "x", 3));
        assertThat(OrderCheck.of(contiguous).numberGaps()).isZero();
        assertThat(OrderCheck.of(contiguous).numbered()).isEqualTo(4);

        List<OrderCheck.Stored> skipped = List.of(new OrderCheck.Stored(1, "cx0n0x", 1),
            new OrderCheck.Stored(2, "cx0n" + k + "x", 3), new OrderCheck.Stored(3, "cx0n" + 2 * k + "x", 3));
        OrderCheck.Verdict v = OrderCheck.of(skipped);
        assertThat(v.numberGaps()).as("a skipped number").isEqualTo(1);
        assertThat(v.numberRepeats()).as("a repeated one").isEqualTo(1);
        assertThat(v.gaps().get(0)).isEqualTo("Jetsink-Sequence on s0-k0: stream #2 cx0n" + k + "x has 3, expected 2");
        assertThat(OrderCheck.of(stored("cx0n0x", "cx0n" + k + "x")).numbered()).as("no header, not numbered").isZero();
    }

    @Test
    void eachObjectsEventsStoredInTheirSendersOrderHaveNoBreak() {
        int k = SenderForm.KEYS;
        // sender 0's requests 0, k, 2k are about object s0-k0; request 1 about s0-k1; the sink's as well
        OrderCheck.Verdict v = OrderCheck.of(stored("cx0n0x", "cx0n1x", "cx0n" + k + "x", "cxsn3x", "cx0n" + 2 * k + "x",
            "cxsn" + (3 + k) + "x"));

        assertThat(v.breaks()).isZero();
        assertThat(v.first()).isEmpty();
        assertThat(v.events()).isEqualTo(6);
        assertThat(v.keys()).as("s0-k0, s0-k1, ss-k3").isEqualTo(3);
    }

    @Test
    void anEventStoredAfterANewerOneOfItsObjectIsABreak() {
        int k = SenderForm.KEYS;
        String older = "cx1n" + k + "x";
        String newer = "cx1n" + 2 * k + "x";
        OrderCheck.Verdict v = OrderCheck.of(stored("cx1n0x", newer, older, "cx1n" + 3 * k + "x"));

        assertThat(v.breaks()).as(older + " after " + newer).isEqualTo(1);
        assertThat(v.first()).singleElement().isEqualTo(new OrderCheck.Break("s1-k0", 3, older, 2, newer));
        assertThat(v.keys()).isEqualTo(1);
    }

    @Test
    void theStreamIsWalkedBySequenceWhateverOrderItWasReadIn() {
        int k = SenderForm.KEYS;
        List<OrderCheck.Stored> read = List.of(new OrderCheck.Stored(9, "cx0n" + k + "x"), new OrderCheck.Stored(4, "cx0n0x"));
        assertThat(OrderCheck.of(read).breaks()).isZero();

        List<OrderCheck.Stored> swapped = List.of(new OrderCheck.Stored(4, "cx0n" + k + "x"), new OrderCheck.Stored(9, "cx0n0x"));
        assertThat(OrderCheck.of(swapped).breaks()).isEqualTo(1);
    }

    @Test
    void differentObjectsAndDifferentSendersInterleaveFreely() {
        int k = SenderForm.KEYS;
        // s0-k1 before s0-k0, and sender 2's request k (object s2-k0) before sender 0's request 0 (s0-k0)
        OrderCheck.Verdict v = OrderCheck.of(stored("cx0n1x", "cx2n" + k + "x", "cx0n0x", "cx2n" + (k + 1) + "x",
            "cx2n1x", "cxsn" + k + "x", "cx0n" + k + "x", "cxsn0x"));

        assertThat(v.keys()).as("s0-k1, s2-k0, s0-k0, s2-k1, ss-k0").isEqualTo(5);
        assertThat(v.breaks()).as("cx2n1x after cx2n" + (k + 1) + "x (both s2-k1), cxsn0x after cxsn" + k + "x (both ss-k0)")
            .isEqualTo(2);
        assertThat(v.first()).extracting(OrderCheck.Break::key).containsExactly("s2-k1", "ss-k0");
    }

    @Test
    void aBatchsEventsAreOrderedByTheirIndexAfterTheirRequest() {
        int k = SenderForm.KEYS;
        assertThat(OrderCheck.of(stored("cx2n0b0x", "cx2n0b1x", "cx2n0b2x", "cx2n" + k + "b0x")).breaks()).isZero();

        OrderCheck.Verdict swapped = OrderCheck.of(stored("cx2n0b0x", "cx2n0b2x", "cx2n0b1x", "cx2n" + k + "b0x"));
        assertThat(swapped.breaks()).as("index 1 after index 2 of the same request").isEqualTo(1);
        assertThat(swapped.first()).singleElement().extracting(OrderCheck.Break::token).isEqualTo("cx2n0b1x");

        OrderCheck.Verdict behind = OrderCheck.of(stored("cx2n" + k + "b0x", "cx2n0b2x"));
        assertThat(behind.breaks()).as("the last index of a request after the next request of its object").isEqualTo(1);
    }

    @Test
    void aSecondCopyOfTheNewestEventIsADuplicateNotABreak() {
        OrderCheck.Verdict v = OrderCheck.of(stored("cx0n0x", "cx0n0x"));
        assertThat(v.breaks()).isZero();
        assertThat(v.events()).isEqualTo(2);
    }

    @Test
    void underOrderKeyABreakIsAProblemAndUnderNoneOnlyReported() throws Exception {
        int k = SenderForm.KEYS;
        String older = "cx0n0x";
        String newer = "cx0n" + k + "x";
        Ledger ledger = ackedOnTheJetStreamPath(older, newer);
        List<StoredMessage> stream = List.of(message(1, "a", "{\"versionId\":\"" + newer + "\"}"),
            message(2, "b", "{\"versionId\":\"" + older + "\"}"));

        Checker.Result key = Checker.check(ledger, stream, List.of(), List.of(root), OrderMode.KEY);
        assertThat(key.order().breaks()).isEqualTo(1);
        assertThat(key.problems()).singleElement().asString().contains("ORDER=key").contains(older).contains(newer);

        Checker.Result none = Checker.check(ledger, stream, List.of(), List.of(root), OrderMode.NONE);
        assertThat(none.order().breaks()).isEqualTo(1);
        assertThat(none.problems()).isEmpty();
        assertThat(none.report()).anyMatch(line -> line.startsWith("order break on s0-k0") && line.contains(older));
    }

    @Test
    void failedRecordsThatFollowAFailedEventOfTheirObjectAreCountedApart() throws Exception {
        int k = SenderForm.KEYS;
        String first = "cx0n0x";
        String follower = "cx0n" + k + "x";
        String other = "cx0n1x";
        Ledger ledger = ackedOnTheJetStreamPath(first, follower, other);
        FailedEventStore store = FailedEventStore.open(root.resolve("notify"), "notify", Clock.systemUTC());
        String detail = "message too large";
        failed(store, 1, first, detail);
        failed(store, 2, follower, Checker.FOLLOWER_DETAIL + " (" + detail + ")");
        failed(store, 3, other, "no responders");

        Checker.Result r = Checker.check(ledger, List.of(), List.of(), List.of(root), OrderMode.KEY);

        assertThat(r.failed()).isEqualTo(3);
        assertThat(r.followers()).as(follower + " followed " + first).isEqualTo(1);
        assertThat(r.problems()).isEmpty();
        assertThat(r.report()).contains("failed 3, of which following a failed event of their object: 1");
    }

    private static void failed(FailedEventStore store, long seq, String token, String detail) throws Exception {
        byte[] payload = ("{\"versionId\":\"" + token + "\"}").getBytes(StandardCharsets.UTF_8);
        store.write(FailedRecord.terminal(seq, "m-" + seq, "notify", Stage.SUBJECT,
            new EventMetadata(TargetKind.NOTIFY, "photos", "chaos/s0-k0.jpg", "s3:ObjectCreated:Put", "application/json"),
            Instant.now(), Instant.now(), detail, 1, payload));
    }
}

package dev.jetsink.server.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jetsink.testkit.StoredMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The campaign's checker finds what it exists to find: a lost event, a doubled one, a stranger. */
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

        Checker.Result r = Checker.check(ledger, stream, List.of(), List.of(root));

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
            List.of("{\"requestID\":\"cx2n1x\"}".getBytes(StandardCharsets.UTF_8)), List.of(root));

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

        Checker.Result r = Checker.check(ledger, leader, List.of(), List.of(root), java.util.Set.of("cx0n1x"));

        assertThat(r.diverged()).as("cx0n1x is on another replica").isEqualTo(1);
        assertThat(r.lost()).as("cx0n2x is on none").isEqualTo(1);
        assertThat(r.lostTokens()).containsExactly("cx0n2x");
        assertThat(r.problems()).singleElement().asString().contains("cx0n2x").doesNotContain("cx0n1x");
        assertThat(r.report()).anyMatch(line -> line.contains("replicas diverged") && line.contains("cx0n1x"));

        Checker.Result clean = Checker.check(ledger, leader, List.of(), List.of(root), java.util.Set.of("cx0n1x", "cx0n2x"));
        assertThat(clean.problems()).isEmpty();
        assertThat(clean.lost()).isZero();
        assertThat(clean.diverged()).isEqualTo(2);
    }

    @Test
    void theStreamShapeCountsTheSequencesMissingBetweenFirstAndLast() {
        List<StoredMessage> stream = List.of(message(3, "a", "x"), message(4, "b", "y"), message(7, "c", "z"));
        assertThat(Checker.streamShape(stream)).isEqualTo("stream first_seq=3 last_seq=7 messages=3 missing_between=2");
        assertThat(Checker.streamShape(List.of())).isEqualTo("stream empty");
    }
}

package dev.jetsink.internal.targets;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.failed.FailedRecord;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.Outcome;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ORDER=key} (DESIGN.md "Order per object") against a real nats-server: one entry per
 * object in flight, through an attempt deadline, a terminal rejection in the middle of an
 * object's chain, and a restart with a backlog; each object's messages reach the stream in the
 * order the target accepted them.
 */
@Tag("broker")
class KeyOrderDeliveryTest {
    private static final Pattern NTH = Pattern.compile("\"n\":(\\d+)");

    /** Event {@code n} (its acceptance index) about object {@code key}, padded to about {@code size} bytes. */
    private static OutboundEvent event(String key, int n, int size) {
        String head = "{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"photos/" + key + "\",\"n\":" + n + ",\"pad\":\"";
        String json = head + "x".repeat(Math.max(0, size - head.length() - 2)) + "\"}";
        return new OutboundEvent(new EventMetadata(TargetKind.NOTIFY, "photos", key, "s3:ObjectCreated:Put", ""),
            json.getBytes(StandardCharsets.UTF_8));
    }

    private static OutboundEvent event(String key, int n) {
        return event(key, n, 0);
    }

    private static Map<String, String> env(TargetHarness h, String order) {
        Map<String, String> env = h.jetStreamEnv(TargetKind.NOTIFY);
        env.put(TargetKind.NOTIFY.envPrefix() + "ORDER", order);
        return env;
    }

    /** Each object's acceptance indices, in stream order. */
    private static Map<String, List<Integer>> perObject(List<StoredMessage> stored) {
        Map<String, List<Integer>> out = new HashMap<>();
        for (StoredMessage m : stored) {
            String text = m.text();
            Matcher k = Pattern.compile("\"Key\":\"photos/([^\"]+)\"").matcher(text);
            Matcher n = NTH.matcher(text);
            assertThat(k.find() && n.find()).as("a test event: " + text).isTrue();
            out.computeIfAbsent(k.group(1), x -> new ArrayList<>()).add(Integer.parseInt(n.group(1)));
        }
        return out;
    }

    /** Each object's Jetsink-Sequence headers, in stream order. */
    private static Map<String, List<Long>> sequences(List<StoredMessage> stored) {
        Map<String, List<Long>> out = new HashMap<>();
        for (StoredMessage m : stored) {
            Matcher k = Pattern.compile("\"Key\":\"photos/([^\"]+)\"").matcher(m.text());
            assertThat(k.find()).isTrue();
            out.computeIfAbsent(k.group(1), x -> new ArrayList<>())
                .add(Long.parseLong(m.header("Jetsink-Sequence").orElseThrow()));
        }
        return out;
    }

    @Test
    void anAttemptDeadlineHoldsBackOnlyItsObjectsLaterEventsAndTheyFollowInOrder() throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            NatsTarget t = h.start(TargetHarness.config(env(h, "key")));
            h.server.pause();
            try {
                int n = 0;
                for (String key : List.of("a", "a", "b", "a", "b")) {
                    TargetSends.send(t, event(key, n++)).join();
                }
                h.events.awaitCount(LifecycleEvent.AttemptFailed.class,
                    e -> e.outcome().cause() == Outcome.Cause.ATTEMPT_DEADLINE_EXCEEDED, 2, TargetHarness.AWAIT);
                // the probe now waits on the injected sleeper: nothing else starts until it is advanced
                h.sleeper.awaitPending(Duration.ofSeconds(4), TargetHarness.AWAIT);
                assertThat(t.dispatcher().orElseThrow().attemptsStarted())
                    .as("one publish per object was out: a's and b's first events, no later one").isEqualTo(2);
            } finally {
                h.server.resume();
            }
            h.awaitDrained(t, TargetHarness.AWAIT);
            List<StoredMessage> stored = h.readStream();
            assertThat(stored).as("each event once").hasSize(5);
            assertThat(perObject(stored)).containsEntry("a", List.of(0, 1, 3)).containsEntry("b", List.of(2, 4));
            assertThat(sequences(stored)).as("the re-published first events kept their numbers")
                .containsEntry("a", List.of(1L, 2L, 3L)).containsEntry("b", List.of(1L, 2L));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"key", "none"})
    void aTerminalRejectionTakesTheObjectsQueuedEventsToTheFailedStoreWithItWhenOrdered(String order) throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createStream(StreamSpec.of(TargetHarness.STREAM, TargetHarness.SUBJECT)
                .duplicateWindow(Duration.ofSeconds(274)).maxMsgSize(1024).build());
            TargetConfig config = TargetHarness.config(env(h, order));
            NatsTarget t = h.start(config);
            h.server.pause(); // all five are queued before any answer comes
            try {
                TargetSends.send(t, event("a", 0)).join();
                TargetSends.send(t, event("a", 1, 4000)).join(); // over the stream's max_msg_size: permanent
                TargetSends.send(t, event("a", 2)).join();
                TargetSends.send(t, event("b", 3)).join();
                TargetSends.send(t, event("a", 4)).join();
            } finally {
                h.server.resume();
            }
            boolean ordered = order.equals("key");
            int failed = ordered ? 3 : 1;
            h.events.awaitCount(LifecycleEvent.MovedToFailedStore.class, e -> true, failed, TargetHarness.AWAIT);
            TargetSends.send(t, event("a", 5)).join(); // accepted after the failure: delivered
            h.awaitDrained(t, TargetHarness.AWAIT);

            List<FailedRecord> records = new ArrayList<>();
            for (FailedEventStore.StoredFile f : FailedEventStore.list(config.queuePath().orElseThrow())) {
                records.add(FailedEventStore.read(f.path()));
            }
            records.sort(java.util.Comparator.comparingLong(FailedRecord::id));
            Map<String, List<Integer>> stored = perObject(h.readStream());
            assertThat(stored.get("b")).isEqualTo(List.of(3));
            if (ordered) {
                assertThat(stored.get("a")).as("nothing of a after the rejected event overtakes it").isEqualTo(List.of(0, 5));
                assertThat(sequences(h.readStream())).as("a consumer sees the three failed events as a gap")
                    .containsEntry("a", List.of(1L, 5L)).containsEntry("b", List.of(1L));
                assertThat(records).extracting(FailedRecord::errorDetail).containsExactly(
                    "message exceeds stream max size (server error code 10054 status 400)",
                    "follows a failed event of the same object (message exceeds stream max size"
                        + " (server error code 10054 status 400))",
                    "follows a failed event of the same object (message exceeds stream max size"
                        + " (server error code 10054 status 400))");
                assertThat(records).extracting(r -> r.orderKey().orElseThrow()).containsOnly("photos/a");
                assertThat(records).extracting(r -> perObject(List.of(new StoredMessage(0, "", Map.of(), r.payload())))
                    .get("a").get(0)).as("in acceptance order").containsExactly(1, 2, 4);
            } else {
                assertThat(stored.get("a")).as("unordered, later events of a are stored past the rejected one")
                    .isEqualTo(List.of(0, 2, 4, 5));
                assertThat(h.readStream()).allSatisfy(m -> assertThat(m.header("Jetsink-Sequence")).isEmpty());
                assertThat(records).singleElement().satisfies(r -> assertThat(r.orderKey()).isEmpty());
            }
        }
    }

    @Test
    void aBacklogLeftOnDiskByAStopIsDeliveredInEachObjectsOrderAfterTheRestart() throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            TargetConfig config = TargetHarness.config(env(h, "key"));
            NatsTarget first = h.start(config);
            java.util.Random r = new java.util.Random(7);
            h.server.pause(); // a window is in flight and the rest waits when the target stops
            NatsTarget reopened;
            try {
                for (int n = 0; n < 600; n++) {
                    TargetSends.send(first, event("k" + r.nextInt(12), n)).join();
                }
                first.close(Duration.ofMillis(200));
                reopened = NatsTarget.open(config, h.runtime());
            } finally {
                h.server.resume();
            }
            try (reopened) {
                reopened.start();
                h.awaitDrained(reopened, Duration.ofSeconds(60));
                List<StoredMessage> stored = h.readStream();
                assertThat(stored).as("each event once").hasSize(600);
                Map<String, List<Integer>> perObject = perObject(stored);
                assertThat(perObject).hasSize(12);
                perObject.forEach((key, ns) -> assertThat(ns).as(key).isSorted().doesNotHaveDuplicates());
                sequences(stored).forEach((key, seqs) -> assertThat(seqs).as(key + ": 1, 2, 3, ... across the restart")
                    .isEqualTo(java.util.stream.LongStream.rangeClosed(1, seqs.size()).boxed().toList()));
            }
        }
    }

    @Test
    void aResendOfAnEventStoredBeforeANewerOneOfItsObjectLeavesNoGap() throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            NatsTarget t = h.start(TargetHarness.config(env(h, "key")));
            TargetSends.send(t, event("a", 0)).join();
            TargetSends.send(t, event("a", 1)).join();
            // the store re-sends a batch of both (as after a request it got no answer to): same bytes, same msg ids
            TargetSends.send(t, event("a", 0)).join();
            TargetSends.send(t, event("a", 1)).join();
            TargetSends.send(t, event("a", 2)).join();
            h.awaitDrained(t, TargetHarness.AWAIT);
            assertThat(h.events.all(LifecycleEvent.EntryResolved.class)).filteredOn(LifecycleEvent.EntryResolved::duplicate)
                .as("the re-sends met the stored copies").hasSize(2);
            List<StoredMessage> stored = h.readStream();
            assertThat(perObject(stored)).containsEntry("a", List.of(0, 1, 2));
            assertThat(sequences(stored)).as("the re-sends' numbers were not stored: the next event has the first")
                .containsEntry("a", List.of(1L, 2L, 3L));
        }
    }

    @Test
    void aResendWhoseCopyWasStoredUnnumberedBeforeOrderWasTurnedOnTakesNoNumber() throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            NatsTarget unordered = h.start(TargetHarness.config(env(h, "none")));
            TargetSends.send(unordered, event("a", 0)).join();
            h.awaitDrained(unordered, TargetHarness.AWAIT);
            unordered.close(Duration.ofSeconds(5));

            NatsTarget t = h.start(TargetHarness.config(env(h, "key")));
            TargetSends.send(t, event("a", 0)).join(); // re-sent after the restart: its copy carries no number
            TargetSends.send(t, event("a", 1)).join();
            h.awaitDrained(t, TargetHarness.AWAIT);
            List<StoredMessage> stored = h.readStream();
            assertThat(perObject(stored)).containsEntry("a", List.of(0, 1));
            assertThat(stored.get(0).header("Jetsink-Sequence")).as("stored before ORDER=key").isEmpty();
            assertThat(stored.get(1).header("Jetsink-Sequence")).as("the object's first numbered message")
                .contains("1");
        }
    }

    /** A server whose user {@code a} may not read stored messages back ({@code STREAM.MSG.GET}); {@code admin} may. */
    private static final String NO_READ_BACK = """
        authorization {
          users = [
            {user: admin, password: adminpw}
            {user: a, password: b, permissions: {publish: {deny: ["$JS.API.STREAM.MSG.GET.>"]}}}
          ]
        }
        """;

    /** The target connects as {@link #NO_READ_BACK}'s user {@code a}. */
    private static void asUserWhoMayNotReadBack(Map<String, String> env) {
        env.put(TargetKind.NOTIFY.envPrefix() + "USERNAME", "a");
        env.put(TargetKind.NOTIFY.envPrefix() + "PASSWORD", "b");
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException
    @Test
    void aResendWhoseStoredCopyCannotBeReadCostsAGapOfOneAndSaysWhy() throws Exception {
        try (TargetHarness h = new TargetHarness(NatsServer.builder().config(NO_READ_BACK).build().start());
             Connection admin = Nats.connect(new Options.Builder().server(h.server.url()).userInfo("admin", "adminpw").build());
             CapturedLog log = new CapturedLog()) {
            Streams.create(admin, StreamSpec.of(TargetHarness.STREAM, TargetHarness.SUBJECT)
                .duplicateWindow(Duration.ofSeconds(274)).build());
            Map<String, String> env = env(h, "key");
            asUserWhoMayNotReadBack(env);
            NatsTarget t = h.start(TargetHarness.config(env));
            TargetSends.send(t, event("a", 0)).join();
            TargetSends.send(t, event("a", 1)).join();
            TargetSends.send(t, event("a", 0)).join();
            TargetSends.send(t, event("a", 2)).join();
            h.awaitDrained(t, Duration.ofSeconds(60));
            List<StoredMessage> stored = Streams.readAll(admin, TargetHarness.STREAM);
            assertThat(perObject(stored)).containsEntry("a", List.of(0, 1, 2));
            assertThat(sequences(stored)).as("not knowing, the number counts as stored: a gap, never a repeat")
                .containsEntry("a", List.of(1L, 2L, 4L));
            assertThat(log.lines(Level.WARN, "the stored copy of a duplicate could not be read back")).singleElement()
                .satisfies(line -> assertThat(line).contains("$JS.API.STREAM.MSG.GET." + TargetHarness.STREAM));
        }
    }

    /** A stream for the subjects below: one per object where the template names objects, or one for all. */
    private static final String OBJECT_SUBJECT = "obj.{bucket}.{key_prefix:2}";

    private static Map<String, String> env(TargetHarness h, String order, String subject) {
        Map<String, String> env = env(h, order);
        env.put(TargetKind.NOTIFY.envPrefix() + "SUBJECT", subject);
        return env;
    }

    @ParameterizedTest
    @ValueSource(strings = {OBJECT_SUBJECT, "obj.all"})
    void aRepublishAfterTheDuplicateWindowOfACopyWhoseAckWasLostIsRefusedWhereTheSubjectNamesTheObject(String subject)
        throws Exception {
        Duration window = Duration.ofMillis(500);
        try (TargetHarness h = new TargetHarness()) {
            h.createStream(StreamSpec.of(TargetHarness.STREAM, "obj.>").duplicateWindow(Duration.ofSeconds(274)).build());
            NatsTarget t = h.start(TargetHarness.config(env(h, "key", subject)));
            TargetSends.send(t, event("z", 9)).join();
            h.awaitDrained(t, TargetHarness.AWAIT); // the stream is validated: its window is long enough then
            // shortened afterwards, so that the scenario need not wait out the window the target asks for
            var admin = h.admin().jetStreamManagement();
            admin.updateStream(io.nats.client.api.StreamConfiguration.builder(
                admin.getStreamInfo(TargetHarness.STREAM).getConfiguration()).duplicateWindow(window).build());
            h.server.pause();
            try {
                TargetSends.send(t, event("a", 0)).join();
                TargetSends.send(t, event("a", 1)).join();
                h.events.awaitCount(LifecycleEvent.AttemptFailed.class,
                    e -> e.outcome().cause() == Outcome.Cause.ATTEMPT_DEADLINE_EXCEEDED, 1, TargetHarness.AWAIT);
                h.sleeper.awaitPending(Duration.ofSeconds(4), TargetHarness.AWAIT);
            } finally {
                h.server.resume(); // the server stores a's first event now; its ack finds no one waiting
            }
            org.awaitility.Awaitility.await().atMost(TargetHarness.AWAIT).until(() -> h.readStream().size() == 2);
            // the server forgets the msg id when its duplicate window has passed: no event says so
            Thread.sleep(window.multipliedBy(3).toMillis());
            h.awaitDrained(t, TargetHarness.AWAIT);
            List<StoredMessage> stored = h.readStream();
            if (subject.equals(OBJECT_SUBJECT)) {
                assertThat(perObject(stored)).as("refused as not after the object's last message, found stored")
                    .containsEntry("a", List.of(0, 1));
                assertThat(sequences(stored)).containsEntry("a", List.of(1L, 2L));
                assertThat(stored).extracting(StoredMessage::subject).containsExactly("obj.photos.z", "obj.photos.a", "obj.photos.a");
                assertThat(h.events.all(LifecycleEvent.EntryResolved.class)).filteredOn(LifecycleEvent.EntryResolved::duplicate)
                    .singleElement().satisfies(r -> assertThat(r.streamSeq()).isEqualTo(2));
                assertThat(refusals(t)).as("the refusal found the event's own copy").containsExactly(1L, 0L, 0L);
            } else {
                assertThat(perObject(stored)).as("a subject of many objects has no guard: past the window, stored twice")
                    .containsEntry("a", List.of(0, 0, 1));
            }
        }
    }

    @Test
    void anObjectWithMessagesFromBeforeTheTargetStartedIsPublishedAfterThem() throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createStream(StreamSpec.of(TargetHarness.STREAM, "obj.>").duplicateWindow(Duration.ofSeconds(274)).build());
            TargetConfig config = TargetHarness.config(env(h, "key", OBJECT_SUBJECT));
            NatsTarget first = h.start(config);
            TargetSends.send(first, event("a", 0)).join();
            TargetSends.send(first, event("b", 1)).join();
            h.awaitDrained(first, TargetHarness.AWAIT);
            first.close(Duration.ofSeconds(5));
            h.admin().publish("obj.photos.b", "{\"Key\":\"photos/b\",\"n\":99}".getBytes(StandardCharsets.UTF_8));
            h.admin().flush(Duration.ofSeconds(5));

            NatsTarget second = h.start(config); // knows no subject's last message
            TargetSends.send(second, event("a", 2)).join();
            TargetSends.send(second, event("b", 3)).join();
            TargetSends.send(second, event("c", 4)).join();
            h.awaitDrained(second, TargetHarness.AWAIT);
            List<StoredMessage> stored = h.readStream();
            assertThat(perObject(stored)).containsEntry("a", List.of(0, 2)).containsEntry("b", List.of(1, 99, 3))
                .containsEntry("c", List.of(4));
            assertThat(h.events.all(LifecycleEvent.AttemptFailed.class)).as("a refusal is answered within the attempt").isEmpty();
            assertThat(h.events.all(LifecycleEvent.EntryResolved.class)).noneMatch(LifecycleEvent.EntryResolved::duplicate);
            assertThat(refusals(second)).as("a and b refused once each, after another message").containsExactly(0L, 2L, 0L);
        }
    }

    @SuppressWarnings("try") // jnats' Connection.close() declares InterruptedException
    @Test
    void aRefusalWhoseLastMessageCannotBeReadIsSentAfterTheSequenceItNamesAndSaysWhy() throws Exception {
        try (TargetHarness h = new TargetHarness(NatsServer.builder().config(NO_READ_BACK).build().start());
             Connection admin = Nats.connect(new Options.Builder().server(h.server.url()).userInfo("admin", "adminpw").build());
             CapturedLog log = new CapturedLog()) {
            Streams.create(admin, StreamSpec.of(TargetHarness.STREAM, "obj.>").duplicateWindow(Duration.ofSeconds(274)).build());
            admin.publish("obj.photos.a", "{\"Key\":\"photos/a\",\"n\":99}".getBytes(StandardCharsets.UTF_8));
            admin.flush(Duration.ofSeconds(5));
            Map<String, String> env = env(h, "key", OBJECT_SUBJECT);
            asUserWhoMayNotReadBack(env);
            NatsTarget t = h.start(TargetHarness.config(env)); // knows no subject's last message
            TargetSends.send(t, event("a", 0)).join();
            h.awaitDrained(t, TargetHarness.AWAIT);
            assertThat(perObject(Streams.readAll(admin, TargetHarness.STREAM))).containsEntry("a", List.of(99, 0));
            assertThat(h.events.all(LifecycleEvent.AttemptFailed.class)).as("answered within the attempt").isEmpty();
            assertThat(refusals(t)).containsExactly(0L, 0L, 1L);
            assertThat(log.lines(Level.WARN, "the subject's last message could not be read")).singleElement()
                .satisfies(line -> assertThat(line).contains("$JS.API.STREAM.MSG.GET." + TargetHarness.STREAM));
        }
    }

    /** The target's answered refusals: own copy, another message, unread. */
    private static List<Long> refusals(NatsTarget t) {
        return java.util.Arrays.stream(dev.jetsink.internal.publish.SubjectRefusals.Last.values())
            .map(last -> t.counters().subjectRefusals().count(last)).toList();
    }
}

package dev.jetsink.internal.targets;


import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.failed.FailedRecord;
import dev.jetsink.internal.failed.FailedReplay;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Replay and purge of failed records against a real nats-server: a stream whose
 * max_msg_size refuses every event fills the failed store; once the operator fixes the stream, a
 * replay delivers every record once with its original msg id and empties the store; a replay while
 * the stream is still broken brings the records back with their replay count raised.
 */
@Tag("broker")
class FailedReplayTest {

    private static final int EVENTS = 20;

    private static StreamSpec stream(boolean broken) {
        StreamSpec.Builder b = StreamSpec.of(TargetHarness.STREAM, TargetHarness.SUBJECT).duplicateWindow(Duration.ofSeconds(274));
        return (broken ? b.maxMsgSize(256) : b).build();
    }

    /** Events larger than the broken stream takes, each different (so each has its own content id). */
    private static OutboundEvent event(int i) {
        String json = "{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"photos/obj-" + i + "\",\"pad\":\""
            + "x".repeat(400) + "\",\"n\":" + i + "}";
        return new OutboundEvent(new EventMetadata(TargetKind.NOTIFY, "photos", "obj-" + i, "s3:ObjectCreated:Put",
            "image/jpeg"), json.getBytes(StandardCharsets.UTF_8));
    }

    /** Starts a target on a broken stream and waits until all {@link #EVENTS} are in its failed store. */
    private static NatsTarget failAll(TargetHarness h) throws Exception {
        h.createStream(stream(true));
        NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(TargetKind.NOTIFY)));
        for (int i = 0; i < EVENTS; i++) {
            TargetSends.send(t, event(i)).join();
        }
        h.events.awaitCount(LifecycleEvent.MovedToFailedStore.class, e -> true, EVENTS, TargetHarness.AWAIT);
        assertThat(t.failedStore().orElseThrow().count()).isEqualTo(EVENTS);
        return t;
    }

    private static Set<String> failedIds(NatsTarget t) throws IOException {
        return t.failedStore().orElseThrow().files().stream().map(FailedEventStore.StoredFile::msgId)
            .collect(Collectors.toSet());
    }

    @Test
    void afterTheStreamIsFixedAReplayDeliversEveryRecordOnceWithItsMsgIdAndEmptiesTheStore() throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            NatsTarget t = failAll(h);
            Set<String> ids = failedIds(t);
            assertThat(ids).hasSize(EVENTS);
            Streams.update(h.admin(), stream(false));

            FailedReplay.Report r = t.replayFailed(FailedReplay.Filter.ALL, false);

            assertThat(r.matched()).isEqualTo(EVENTS);
            assertThat(r.done()).isEqualTo(EVENTS);
            assertThat(r.problems()).isEmpty();
            assertThat(r.stopped()).isEmpty();
            assertThat(t.failedStore().orElseThrow().count()).as("failed_store_length").isZero();
            assertThat(t.failedStore().orElseThrow().files()).isEmpty();
            assertThat(t.counters().replayedCount()).isEqualTo(EVENTS);
            h.awaitDrained(t, Duration.ofSeconds(30));
            List<StoredMessage> stored = h.readStream();
            assertThat(stored).extracting(m -> m.msgId().orElseThrow()).containsExactlyInAnyOrderElementsOf(ids);
            // a second replay finds nothing: the files left only after their appends were durable
            assertThat(t.replayFailed(FailedReplay.Filter.ALL, false).matched()).isZero();
        }
    }

    @Test
    void aReplayWhileTheStreamIsStillBrokenBringsTheRecordsBackWithTheirReplayCountRaised() throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            NatsTarget t = failAll(h);
            Set<String> ids = failedIds(t);
            int movedBefore = h.events.all(LifecycleEvent.MovedToFailedStore.class).size();

            FailedReplay.Report r = t.replayFailed(FailedReplay.Filter.ALL, false);
            assertThat(r.done()).isEqualTo(EVENTS);
            h.events.awaitCount(LifecycleEvent.MovedToFailedStore.class, e -> true, movedBefore + EVENTS, TargetHarness.AWAIT);

            List<FailedRecord> again = records(t);
            assertThat(again).hasSize(EVENTS);
            assertThat(again).extracting(FailedRecord::natsMsgId).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(again).allSatisfy(rec -> {
                assertThat(rec.replays()).isEqualTo(1);
                assertThat(rec.contentType()).isEqualTo("image/jpeg");
            });
            assertThat(h.readStream()).isEmpty();
        }
    }

    @Test
    void filtersAndDryRunsSelectWithoutChangingAnything() throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            NatsTarget t = failAll(h);
            List<FailedEventStore.StoredFile> files = t.failedStore().orElseThrow().files();
            Instant middle = files.get(EVENTS / 2).failedAt();

            FailedReplay.Report dry = t.replayFailed(new FailedReplay.Filter(Optional.of(middle), Optional.empty(),
                Optional.empty(), OptionalInt.of(3)), true);
            assertThat(dry.dryRun()).isTrue();
            assertThat(dry.matched()).isEqualTo(3);
            assertThat(dry.done()).isZero();
            assertThat(dry.items()).allSatisfy(i -> assertThat(i.failedAt()).isAfterOrEqualTo(middle));
            assertThat(t.failedStore().orElseThrow().files()).as("a dry run changes nothing").hasSize(EVENTS);
            assertThat(t.queueLength()).isZero();

            assertThat(t.replayFailed(new FailedReplay.Filter(Optional.empty(), Optional.empty(),
                Optional.of("MAX SIZE"), OptionalInt.empty()), true).matched())
                .as("reason matches the error, case-insensitively").isEqualTo(EVENTS);
            assertThat(t.replayFailed(new FailedReplay.Filter(Optional.empty(), Optional.of(files.get(0).failedAt()),
                Optional.empty(), OptionalInt.empty()), true).matched()).as("until is exclusive").isZero();

            FailedReplay.Report purgeDry = t.purgeFailed(FailedReplay.Filter.ALL, true);
            assertThat(purgeDry.matched()).isEqualTo(EVENTS);
            assertThat(t.failedStore().orElseThrow().count()).isEqualTo(EVENTS);
            FailedReplay.Report purged = t.purgeFailed(new FailedReplay.Filter(Optional.empty(), Optional.empty(),
                Optional.empty(), OptionalInt.of(5)), false);
            assertThat(purged.done()).isEqualTo(5);
            assertThat(t.failedStore().orElseThrow().count()).isEqualTo(EVENTS - 5);
            assertThat(t.failedStore().orElseThrow().files()).extracting(FailedEventStore.StoredFile::fileName)
                .doesNotContainAnyElementsOf(purged.items().stream().map(FailedReplay.Item::file).toList());
        }
    }

    @Test
    void aFilterThatCannotMatchIsRefused() {
        Instant now = Instant.parse("2026-12-03T12:00:00Z");
        assertThatThrownBy(() -> new FailedReplay.Filter(Optional.of(now), Optional.of(now), Optional.empty(),
            OptionalInt.empty())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be before");
        assertThatThrownBy(() -> new FailedReplay.Filter(Optional.empty(), Optional.empty(), Optional.empty(),
            OptionalInt.of(0))).isInstanceOf(IllegalArgumentException.class).hasMessage("limit must be at least 1, not 0");
    }

    @Test
    void aCoreTargetHasNoFailedStoreToReplay() throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            TargetConfig core = TargetHarness.config(java.util.Map.of("RUSTFS_NOTIFY_NATS_ENABLE", "on",
                "RUSTFS_NOTIFY_NATS_ADDRESS", h.server.url(), "RUSTFS_NOTIFY_NATS_SUBJECT", TargetHarness.SUBJECT));
            NatsTarget t = h.start(core);
            assertThatThrownBy(() -> t.replayFailed(FailedReplay.Filter.ALL, false))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("has no failed-events store");
        }
    }

    private static List<FailedRecord> records(NatsTarget t) throws IOException {
        List<FailedRecord> out = new java.util.ArrayList<>();
        for (FailedEventStore.StoredFile f : t.failedStore().orElseThrow().files()) {
            out.add(FailedEventStore.read(f.path()));
        }
        return out;
    }
}

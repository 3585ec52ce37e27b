package dev.jetsink.internal.targets;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.event.OutboundEvent;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.failed.FailedRecord;
import dev.jetsink.lifecycle.LifecycleEvent;
import dev.jetsink.lifecycle.Outcome;
import dev.jetsink.lifecycle.ResetReason;
import dev.jetsink.testkit.NatsServer;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import io.nats.client.Subscription;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What reaches the failed-events store and what never does (DESIGN.md "Classification",
 * "Failed-events store"), against a real nats-server, for notify and audit alike.
 */
@Tag("broker")
class TerminalOutcomeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FIXED_VOCABULARY_CODES = "server error code \\d+ status \\d+";

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void sealedWhileRunningSendsTheFirstRejectionAfterAPassToTheFailedStoreAndKeepsTheRestQueued(TargetKind kind)
            throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(kind)));
            TargetHarness.sendAll(t, kind, 0, 1);
            h.awaitResolved(1);
            assertThat(t.verdictPass()).as("PASS is cached after the first delivery").isTrue();

            Streams.seal(h.admin(), TargetHarness.STREAM);
            TargetSends.send(t, TargetHarness.event(kind, 1)).join();
            LifecycleEvent.MovedToFailedStore moved = h.events.await(LifecycleEvent.MovedToFailedStore.class,
                e -> true, TargetHarness.AWAIT);
            assertThat(moved.outcome().cause()).isEqualTo(Outcome.Cause.STREAM_SEALED);
            h.events.await(LifecycleEvent.VerdictChanged.class,
                e -> e.reason().equals(Optional.of(ResetReason.STREAM_SEALED)), TargetHarness.AWAIT);
            assertThat(t.verdictPass()).as("the 10109 resets the verdict").isFalse();

            // Entries queued now meet a live validation that finds the stream sealed: retryable.
            TargetHarness.sendAll(t, kind, 2, 3);
            for (int attempt = 1; attempt <= 3; attempt++) {
                h.events.awaitCount(LifecycleEvent.AttemptFailed.class, e -> isValidationFailure(e.outcome()),
                    attempt, TargetHarness.AWAIT);
                if (attempt < 3) {
                    h.sleeper.awaitPending(Duration.ofSeconds(4L << (attempt - 1)), TargetHarness.AWAIT);
                    h.sleeper.advance(Duration.ofSeconds(4L << (attempt - 1)));
                }
            }
            assertThat(t.queueLength()).as("entries queued after the seal stay queued").isEqualTo(3);
            assertThat(h.events.all(LifecycleEvent.MovedToFailedStore.class)).hasSize(1);
            assertThat(t.failedStore().orElseThrow().count()).isEqualTo(1);
            assertThat(t.counters().failedCount()).isEqualTo(1);
            List<FailedEventStore.StoredFile> records = FailedEventStore.list(t.config().queuePath().orElseThrow());
            assertThat(records).singleElement().satisfies(f -> assertThat(FailedEventStore.read(f.path()).errorDetail())
                .isEqualTo("stream sealed (server error code 10109 status 400)"));
            assertThat(h.readStream()).as("nothing stored after the seal").hasSize(1);
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void sealingAStreamUnderLoadMovesExactlyOneEntryToTheFailedStore(TargetKind kind) throws Exception {
        int load = 5000;
        try (TargetHarness h = new TargetHarness()) {
            h.createDefaultStream();
            // The longest ack timeout the default stream's 274 s window allows: the window of
            // publishes must still be waiting for its answers when the frozen server resumes, and
            // queueing 5 000 entries on a loaded machine once took longer than 10 s.
            Map<String, String> env = h.jetStreamEnv(kind);
            env.put(kind.envPrefix() + "JETSTREAM_ACK_TIMEOUT_SECS", "30");
            NatsTarget t = h.start(TargetHarness.config(env));
            TargetHarness.sendAll(t, kind, 0, 1);
            h.awaitResolved(1);
            Streams.seal(h.admin(), TargetHarness.STREAM);

            // Frozen, the server answers nothing: the window fills with publishes sent on the cached PASS.
            long before = t.dispatcher().orElseThrow().attemptsStarted();
            h.server.pause();
            try {
                // Queued together, so the dispatcher takes them in large fills, not one by one.
                List<CompletableFuture<Void>> sends = new ArrayList<>();
                for (int i = 1; i <= load; i++) {
                    sends.add(TargetSends.send(t, TargetHarness.event(kind, i)));
                }
                CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).join();
                // Several publishes out before the server hears any: it cannot answer while frozen.
                TargetHarness.awaitAttemptsStarted(t, before + 2);
            } finally {
                h.server.resume();
            }
            h.events.await(LifecycleEvent.MovedToFailedStore.class, e -> true, TargetHarness.AWAIT);
            LifecycleEvent.ProbeModeEntered probe = h.events.await(LifecycleEvent.ProbeModeEntered.class,
                e -> true, TargetHarness.AWAIT);
            // The probe's next attempt validates live; its answer comes after every reply to the window.
            h.sleeper.awaitPending(Duration.ofSeconds(4), TargetHarness.AWAIT);
            h.sleeper.advance(Duration.ofSeconds(4));
            h.events.await(LifecycleEvent.AttemptFailed.class, e -> e.msgId().equals(probe.probeMsgId())
                && isValidationFailure(e.outcome()) && e.outcome().apiErrorCode().isEmpty(), TargetHarness.AWAIT);

            assertThat(sealedInFlight(h)).as("other publishes of the window came back sealed").isPositive();
            assertThat(h.events.all(LifecycleEvent.MovedToFailedStore.class)).hasSize(1);
            assertThat(t.failedStore().orElseThrow().count()).isEqualTo(1);
            assertThat(t.counters().failedCount()).isEqualTo(1);
            assertThat(t.queueLength()).isEqualTo(load - 1);
            assertThat(h.readStream()).hasSize(1);
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void payloadOverTheStreamMaxMsgSizeGoesToTheFailedStoreWithEveryField(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness(); CapturedLog logs = new CapturedLog()) {
            h.createStream(StreamSpec.of(TargetHarness.STREAM, TargetHarness.SUBJECT)
                .duplicateWindow(Duration.ofSeconds(274)).maxMsgSize(1024).build());
            TargetConfig config = TargetHarness.config(h.jetStreamEnv(kind));
            NatsTarget t = h.start(config);
            OutboundEvent big = sized(kind, "big-object", 4000);

            TargetSends.send(t, big).join();
            LifecycleEvent.MovedToFailedStore moved = h.events.await(LifecycleEvent.MovedToFailedStore.class,
                e -> true, TargetHarness.AWAIT);
            TargetHarness.sendAll(t, kind, 0, 3);
            h.awaitResolved(3);

            Path failedDir = config.queuePath().orElseThrow().resolve(FailedEventStore.DIRECTORY);
            List<Path> files;
            try (Stream<Path> s = Files.list(failedDir)) {
                files = s.filter(p -> p.getFileName().toString().endsWith(".json")).toList();
            }
            assertThat(files).hasSize(1);
            String msgId = moved.msgId();
            assertThat(files.get(0).getFileName().toString()).matches("\\d{13}-" + msgId + "\\.json");

            JsonNode r = JSON.readTree(files.get(0).toFile());
            List<String> fields = new ArrayList<>();
            for (Iterator<String> it = r.fieldNames(); it.hasNext(); ) {
                fields.add(it.next());
            }
            assertThat(fields).containsExactlyInAnyOrder("id", "nats_msg_id", "target", "kind", "subject", "bucket",
                "object", "event_name", "queued_at", "failed_at", "error_class", "error_detail", "retry_count",
                "content_type", "replays", "payload");
            assertThat(r.get("id").isIntegralNumber()).isTrue();
            assertThat(r.get("nats_msg_id").asText()).isEqualTo(msgId);
            assertThat(r.get("target").asText()).isEqualTo(config.displayId());
            assertThat(r.get("kind").asText()).isEqualTo(kind.label());
            assertThat(r.get("subject").asText()).isEqualTo(TargetHarness.SUBJECT);
            assertThat(r.get("bucket").asText()).isEqualTo("photos");
            assertThat(r.get("object").asText()).isEqualTo("big-object");
            assertThat(r.get("event_name").asText()).isEqualTo("s3:ObjectCreated:Put");
            Instant queuedAt = rfc3339(r.get("queued_at").asText());
            Instant failedAt = rfc3339(r.get("failed_at").asText());
            assertThat(queuedAt).isEqualTo(h.clock.instant());
            assertThat(failedAt).isEqualTo(h.clock.instant());
            assertThat(r.get("error_class").asText()).isEqualTo("terminal");
            String detail = r.get("error_detail").asText();
            assertThat(detail)
                .isEqualTo(moved.outcome().detail())
                .matches("message exceeds stream max size \\(" + FIXED_VOCABULARY_CODES + "\\)")
                .contains("10054");
            assertThat(r.get("retry_count").asInt()).isEqualTo(1);
            assertThat(r.get("payload")).isEqualTo(JSON.readTree(big.payload()));

            List<String> errors = logs.lines(Level.ERROR, msgId);
            assertThat(errors).hasSize(1);
            assertThat(errors.get(0)).contains("bucket=photos", "object=big-object", "event=s3:ObjectCreated:Put",
                "msg_id=" + msgId, "error=" + detail);

            assertThat(t.queueLength()).isZero();
            assertThat(t.counters().failedCount()).isEqualTo(1);
            assertThat(h.readStream()).hasSize(3).noneMatch(m -> m.msgId().orElseThrow().equals(msgId));
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void jetStreamPathSendsAnEventOverTheServerMaxPayloadToTheFailedStore(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness(NatsServer.builder().maxPayload(2048).build().start())) {
            h.createDefaultStream();
            NatsTarget t = h.start(TargetHarness.config(h.jetStreamEnv(kind)));

            TargetSends.send(t, sized(kind, "too-big", 4096)).join();
            TargetHarness.sendAll(t, kind, 0, 3);
            LifecycleEvent.MovedToFailedStore moved = h.events.await(LifecycleEvent.MovedToFailedStore.class,
                e -> true, TargetHarness.AWAIT);
            h.awaitResolved(3);

            assertThat(moved.outcome().cause()).isEqualTo(Outcome.Cause.PAYLOAD_TOO_LARGE);
            assertThat(FailedEventStore.list(t.config().queuePath().orElseThrow()))
                .singleElement().satisfies(f -> {
                    FailedRecord r = FailedEventStore.read(f.path());
                    assertThat(r.object()).isEqualTo("too-big");
                    assertThat(r.errorDetail()).isEqualTo("payload exceeds server max_payload");
                });
            assertThat(t.queueLength()).isZero();
            assertThat(t.counters().failedCount()).isEqualTo(1);
            assertThat(h.readStream()).hasSize(3);
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void corePathKeepsAnEventOverTheServerMaxPayloadQueuedWhileOthersDeliver(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness(NatsServer.builder().maxPayload(2048).build().start())) {
            Map<String, String> env = h.jetStreamEnv(kind);
            env.put(kind.envPrefix() + "JETSTREAM_ENABLE", "off");
            TargetConfig config = TargetHarness.config(env);
            Subscription sub = h.admin().subscribe(TargetHarness.SUBJECT);
            h.admin().flush(Duration.ofSeconds(5));
            NatsTarget t = h.start(config);

            TargetSends.send(t, sized(kind, "too-big", 4096)).join();
            TargetHarness.sendAll(t, kind, 0, 3);
            h.awaitResolved(3);
            List<String> received = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                received.add(new String(sub.nextMessage(TargetHarness.AWAIT).getData(), StandardCharsets.UTF_8));
            }
            assertThat(received).allMatch(p -> !p.contains("too-big"));

            // It stays queued and retries on its own backoff, through a whole cycle and into the next;
            // it never enters probe mode.
            for (int attempt = 1; attempt <= 6; attempt++) {
                h.events.awaitCount(LifecycleEvent.AttemptFailed.class,
                    e -> e.outcome().cause() == Outcome.Cause.PAYLOAD_TOO_LARGE && e.outcome().isTransient(),
                    attempt, TargetHarness.AWAIT);
                if (attempt != 5) {
                    Duration backoff = Duration.ofSeconds(4L << ((attempt - 1) % 5));
                    h.sleeper.awaitPending(backoff, TargetHarness.AWAIT);
                    h.sleeper.advance(backoff);
                }
            }
            TargetHarness.sendAll(t, kind, 3, 2);
            h.awaitResolved(5);
            assertThat(h.events.all(LifecycleEvent.CycleExhausted.class)).singleElement()
                .satisfies(e -> assertThat(e.lifetimeAttempts()).isEqualTo(5));
            assertThat(t.queueLength()).isEqualTo(1);
            assertThat(h.events.all(LifecycleEvent.ProbeModeEntered.class)).isEmpty();
            assertThat(h.events.all(LifecycleEvent.MovedToFailedStore.class)).isEmpty();
            assertThat(t.counters().failedCount()).isZero();
            assertThat(config.queuePath().orElseThrow().resolve(FailedEventStore.DIRECTORY)).doesNotExist();
        }
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void aTargetThatNeverFailsTerminallyHasNoFailedDirectory(TargetKind kind) throws Exception {
        try (TargetHarness h = new TargetHarness()) {
            TargetConfig config = TargetHarness.config(h.jetStreamEnv(kind));
            NatsTarget t = h.start(config);
            // Missing stream first: transient failures and retries, never a terminal one.
            TargetHarness.sendAll(t, kind, 0, 20);
            h.events.await(LifecycleEvent.AttemptFailed.class, e -> isValidationFailure(e.outcome()),
                TargetHarness.AWAIT);
            h.createDefaultStream();
            h.awaitDrained(t, TargetHarness.AWAIT);
            TargetHarness.sendAll(t, kind, 20, 200);
            h.awaitDrained(t, TargetHarness.AWAIT);

            List<StoredMessage> stored = h.readStream();
            assertThat(stored).hasSize(220);
            assertThat(t.counters().failedCount()).isZero();
            assertThat(config.queuePath().orElseThrow()).isDirectory();
            assertThat(config.queuePath().orElseThrow().resolve(FailedEventStore.DIRECTORY)).doesNotExist();
        }
    }

    /** Publishes sent on the cached PASS that came back sealed after the first one reset the verdict. */
    private static long sealedInFlight(TargetHarness h) {
        return h.events.all(LifecycleEvent.AttemptFailed.class).stream()
            .filter(e -> e.outcome().cause() == Outcome.Cause.STREAM_VALIDATION_FAILED
                && e.outcome().apiErrorCode().orElse(0) == 10109)
            .count();
    }

    private static boolean isValidationFailure(Outcome o) {
        return o.cause() == Outcome.Cause.STREAM_VALIDATION_FAILED;
    }

    /** An event whose JSON payload is about {@code size} bytes long. */
    private static OutboundEvent sized(TargetKind kind, String object, int size) {
        String json = "{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"photos/" + object + "\",\"pad\":\""
            + "x".repeat(size) + "\"}";
        return new OutboundEvent(new EventMetadata(kind, "photos", object, "s3:ObjectCreated:Put", ""),
            json.getBytes(StandardCharsets.UTF_8));
    }

    private static Instant rfc3339(String text) {
        return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    }
}

package dev.jetsink.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.server.testing.CliRun;
import dev.jetsink.server.testing.FaultRig;
import dev.jetsink.testkit.StoredMessage;
import dev.jetsink.testkit.StreamSpec;
import dev.jetsink.testkit.Streams;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replay of failed events with the daemon as a child process and a real nats-server:
 * a stream whose max_msg_size refuses every event fills the failed store; the operator fixes the
 * stream and replays, through the CLI (which asks the running daemon) or, with no daemon, on the
 * files; and a daemon SIGKILLed in the middle of replaying 5 000 records loses none of them.
 *
 * <p>Not in the compatibility pass (it takes 30-80 s per server): core's {@code FailedReplayTest}
 * proves replay there.
 */
class FailedReplayIT {

    private static final String TOKEN = "replay-admin-token-0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FAILED_STORE = TargetKind.NOTIFY.metricPrefix() + "failed_store_length";

    private static StreamSpec stream(boolean broken) {
        StreamSpec.Builder b = StreamSpec.of(FaultRig.STREAM, FaultRig.SUBJECT).duplicateWindow(Duration.ofMinutes(5));
        return (broken ? b.maxMsgSize(128) : b).build();
    }

    /** A notify body of {@code count} records, numbered from {@code first}: every one larger than 128 bytes published. */
    private static byte[] body(int first, int count) {
        StringBuilder b = new StringBuilder("{\"Records\":[");
        for (int i = first; i < first + count; i++) {
            if (i > first) {
                b.append(',');
            }
            b.append("{\"eventName\":\"s3:ObjectCreated:Put\",\"s3\":{\"bucket\":{\"name\":\"photos\"},")
                .append("\"object\":{\"key\":\"replay-").append(i).append(".jpg\",\"size\":").append(i).append("}}}");
        }
        return b.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Starts the daemon on a broken stream and fails {@code events} events into its failed store. */
    private static FaultRig failing(int events) throws Exception {
        FaultRig rig = FaultRig.notifyOnly();
        try {
            rig.env.put("JETSINK_ADMIN_TOKEN", TOKEN);
            Streams.update(rig.admin(), stream(true));
            rig.startDaemon();
            for (int first = 0; first < events; first += 500) {
                HttpResponse<String> r = rig.post("/notify", "application/json", body(first, Math.min(500, events - first)));
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            }
            Awaitility.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
                .until(() -> rig.metric(FAILED_STORE) == events);
            return rig;
        } catch (Exception | AssertionError e) {
            rig.close();
            throw e;
        }
    }

    private static Set<String> failedIds(FaultRig rig) throws Exception {
        return FailedEventStore.list(rig.notifyQueue()).stream().map(FailedEventStore.StoredFile::msgId)
            .collect(Collectors.toSet());
    }

    private static Path config(FaultRig rig, Path dir) throws Exception {
        StringBuilder b = new StringBuilder();
        rig.env.forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
        // the daemon listens on an ephemeral port: the CLI finds it where an operator's config says
        b.append("JETSINK_HTTP_ADDRESS=127.0.0.1:").append(rig.base().getPort()).append('\n');
        Path file = dir.resolve("jetsink.env");
        Files.writeString(file, b.toString());
        return file;
    }

    @Test
    void theCliAsksTheRunningDaemonAndEveryFailedRecordIsDeliveredOnceWithItsMsgId() throws Exception {
        int events = 60;
        try (FaultRig rig = failing(events)) {
            Set<String> ids = failedIds(rig);
            assertThat(ids).hasSize(events);
            Path config = config(rig, rig.queueRoot);

            CliRun dry = CliRun.of("failed", "replay", "--kind", "notify", "--target", "_", "--config", config.toString(),
                "--dry-run");
            assertThat(dry.exitCode).as(dry.toString()).isZero();
            assertThat(dry.out).contains("dry run on the running daemon at " + rig.base(),
                events + " record(s) of notify _:nats would be replayed; nothing changed");
            assertThat(failedIds(rig)).isEqualTo(ids);

            Streams.update(rig.admin(), stream(false));
            CliRun replay = CliRun.of("failed", "replay", "--kind", "notify", "--target", "_", "--config",
                config.toString());
            assertThat(replay.exitCode).as(replay.toString()).isZero();
            assertThat(replay.out).contains("replayed " + events + " of " + events + " matched record(s) of notify _:nats"
                + " through the running daemon at " + rig.base() + ": queued again with their original msg ids");
            assertThat(replay.out + replay.err).doesNotContain(TOKEN);

            assertThat(rig.awaitDrained(events, Duration.ofSeconds(60))).isTrue();
            List<StoredMessage> stored = rig.readStream();
            assertThat(stored).extracting(m -> m.msgId().orElseThrow()).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(rig.metric(FAILED_STORE)).isZero();
            assertThat(rig.metric("jetsink_failed_replayed_total")).isEqualTo(events);
            assertThat(failedIds(rig)).isEmpty();
        }
    }

    @Test
    void withNoDaemonTheCliReplaysOnTheFilesAndTheNextStartDeliversThem() throws Exception {
        int events = 30;
        try (FaultRig rig = failing(events)) {
            Set<String> ids = failedIds(rig);
            Path config = config(rig, rig.queueRoot);
            assertThat(rig.stopDaemon()).isZero();
            Streams.update(rig.admin(), stream(false));

            CliRun replay = CliRun.of("failed", "replay", "--kind", "notify", "--target", "_", "--config",
                config.toString(), "--json");
            assertThat(replay.exitCode).as(replay.toString()).isZero();
            JsonNode report = JSON.readTree(replay.out);
            assertThat(report.path("via").asText()).isEqualTo("files");
            assertThat(report.path("done").asInt()).isEqualTo(events);
            assertThat(report.path("records")).hasSize(events);
            assertThat(failedIds(rig)).isEmpty();

            rig.startDaemon();
            assertThat(rig.awaitDrained(events, Duration.ofSeconds(60))).isTrue();
            assertThat(rig.readStream()).extracting(m -> m.msgId().orElseThrow()).containsExactlyInAnyOrderElementsOf(ids);
        }
    }

    @Test
    void aDaemonKilledDuringAReplayOf5000RecordsLosesNoneOfThem() throws Exception {
        int events = 5_000;
        try (FaultRig rig = failing(events)) {
            Set<String> ids = failedIds(rig);
            assertThat(ids).hasSize(events);
            Streams.update(rig.admin(), stream(false));

            URI replay = rig.base().resolve("/rustfs/admin/v3/target/notify/_/failed/replay");
            CompletableFuture<HttpResponse<String>> answer = rig.http().sendAsync(HttpRequest.newBuilder(replay)
                .header("Authorization", "Bearer " + TOKEN).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
            // the first chunks have left failed/: the daemon is in the middle of the replay
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(2))
                .until(() -> fileCount(rig) < events);
            rig.killDaemon();
            int leftInFailed = fileCount(rig);
            boolean finished = answer.isDone() && !answer.isCompletedExceptionally()
                && answer.join().body().contains("\"done\":" + events);
            assertThat(finished).as("the kill met the replay under way").isFalse();
            assertThat(leftInFailed).as("records still in failed/ at the kill").isPositive();

            System.out.println("replay-kill records=" + events + " left_in_failed_at_kill=" + leftInFailed);
            rig.startDaemon();
            Set<String> stillFailed = failedIds(rig);
            Awaitility.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                .until(() -> rig.notifyQueueLength() == 0);
            List<StoredMessage> stored = rig.readSettledStream(Duration.ofSeconds(1), Duration.ofSeconds(60));
            Set<String> inStream = new HashSet<>();
            stored.forEach(m -> inStream.add(m.msgId().orElseThrow()));
            Set<String> accounted = new HashSet<>(inStream);
            accounted.addAll(stillFailed);
            assertThat(accounted).as("every record is in the stream or in failed/ (" + leftInFailed
                + " were left in failed/ at the kill)").containsAll(ids);
            assertThat(stored).as("no msg id stored twice").hasSize(inStream.size());
            assertThat(inStream).as("replayed before the kill and delivered after it").isNotEmpty();
        }
    }

    private static int fileCount(FaultRig rig) throws Exception {
        Path dir = FailedEventStore.directory(rig.notifyQueue());
        try (Stream<Path> s = Files.list(dir)) {
            return (int) s.filter(p -> p.getFileName().toString().endsWith(".json")).count();
        }
    }
}

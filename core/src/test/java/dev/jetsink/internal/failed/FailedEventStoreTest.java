package dev.jetsink.internal.failed;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FailedEventStoreTest {
    private static final Instant T0 = Instant.parse("2026-12-02T10:00:00.123Z");
    private static final String TARGET = "notify primary:nats";
    private static final String RFC_3339 = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})";

    @TempDir
    Path queueDir;

    private final MutableClock clock = new MutableClock(T0);
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final ch.qos.logback.classic.Logger storeLogger =
            (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(FailedEventStore.class);

    @BeforeEach
    void captureLogs() {
        logs.start();
        storeLogger.addAppender(logs);
    }

    @AfterEach
    void releaseLogs() {
        storeLogger.detachAppender(logs);
    }

    @Test
    void writesEveryFieldOfTheRecord() throws IOException {
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET, clock);
        byte[] payload = "{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"photos/a b.jpg\",\"Records\":[{\"n\":1.50}]}"
                .getBytes(StandardCharsets.UTF_8);
        FailedRecord record = FailedRecord.terminal(42, "notify-primary-42", TARGET, "events.s3",
                new EventMetadata(TargetKind.NOTIFY, "photos", "a b.jpg", "s3:ObjectCreated:Put", "image/jpeg"),
                T0.minusSeconds(30), T0, "server error code 10054 status 400", 3, payload);

        FailedEventStore.StoredFile file = store.write(record);

        assertThat(file.fileName()).isEqualTo(T0.toEpochMilli() + "-notify-primary-42.json");
        JsonNode json = new ObjectMapper().readTree(file.path().toFile());
        assertThat(json.get("id").asLong()).isEqualTo(42);
        assertThat(json.get("nats_msg_id").asText()).isEqualTo("notify-primary-42");
        assertThat(json.get("target").asText()).isEqualTo(TARGET);
        assertThat(json.get("kind").asText()).isEqualTo("notify");
        assertThat(json.get("subject").asText()).isEqualTo("events.s3");
        assertThat(json.get("bucket").asText()).isEqualTo("photos");
        assertThat(json.get("object").asText()).isEqualTo("a b.jpg");
        assertThat(json.get("event_name").asText()).isEqualTo("s3:ObjectCreated:Put");
        assertThat(json.get("queued_at").asText()).matches(RFC_3339);
        assertThat(OffsetDateTime.parse(json.get("queued_at").asText()).toInstant()).isEqualTo(T0.minusSeconds(30));
        assertThat(json.get("failed_at").asText()).matches(RFC_3339);
        assertThat(OffsetDateTime.parse(json.get("failed_at").asText()).toInstant()).isEqualTo(T0);
        assertThat(json.get("error_class").asText()).isEqualTo("terminal");
        assertThat(json.get("error_detail").asText()).isEqualTo("server error code 10054 status 400");
        assertThat(json.get("retry_count").asInt()).isEqualTo(3);
        assertThat(json.get("payload").isObject()).isTrue();
        assertThat(json.get("payload")).isEqualTo(new ObjectMapper().readTree(payload));
        assertThat(FailedEventStore.read(file.path())).isEqualTo(record);
    }

    @Test
    void keepsTheCloudEventsAttributesOfAMessageForItsReplay() throws IOException {
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET, clock);
        FailedRecord record = FailedRecord.terminal(43, "m-43", TARGET, "events.s3",
                new EventMetadata(TargetKind.NOTIFY, "photos", "a.jpg", "s3:ObjectCreated:Put", ""),
                T0.minusSeconds(30), T0, "stream sealed", 1, payload(43), 0,
                java.util.Optional.of("{\"specversion\":\"1.0\",\"id\":\"r.1\"}"), java.util.Optional.empty());
        FailedEventStore.StoredFile file = store.write(record);
        JsonNode json = new ObjectMapper().readTree(file.path().toFile());
        assertThat(json.get("cloud_event").asText()).isEqualTo("{\"specversion\":\"1.0\",\"id\":\"r.1\"}");
        assertThat(FailedEventStore.read(file.path())).isEqualTo(record);
        assertThat(new ObjectMapper().readTree(store.write(record(44, "m-44", T0, payload(44))).path().toFile())
            .has("cloud_event")).as("absent when the message carried none").isFalse();
    }

    @Test
    void keepsTheOrderKeyOfAnOrderedTargetsEventForItsReplay() throws IOException {
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET, clock);
        FailedRecord record = FailedRecord.terminal(45, "m-45", TARGET, "events.s3",
                new EventMetadata(TargetKind.AUDIT, "photos", "PutObject", "s3:PutObject", ""),
                T0.minusSeconds(30), T0, "stream sealed", 1, payload(45), 0, java.util.Optional.empty(),
                java.util.Optional.of("photos/a b.jpg"));
        FailedEventStore.StoredFile file = store.write(record);
        assertThat(new ObjectMapper().readTree(file.path().toFile()).get("order_key").asText()).isEqualTo("photos/a b.jpg");
        assertThat(FailedEventStore.read(file.path())).isEqualTo(record);
        assertThat(new ObjectMapper().readTree(store.write(record(46, "m-46", T0, payload(46))).path().toFile())
            .has("order_key")).as("absent when the target was not ordered").isFalse();
    }

    @Test
    void keepsAPayloadThatIsNotJsonAsAString() throws IOException {
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET, clock);
        FailedRecord record = record(7, "m-7", T0, "not { json".getBytes(StandardCharsets.UTF_8));

        FailedEventStore.StoredFile file = store.write(record);

        JsonNode json = new ObjectMapper().readTree(file.path().toFile());
        assertThat(json.get("payload").isTextual()).isTrue();
        assertThat(json.get("payload").asText()).isEqualTo("not { json");
        assertThat(FailedEventStore.read(file.path())).isEqualTo(record);
    }

    @Test
    void logsAnErrorNamingTheEventForEveryFailedRecord() throws IOException {
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET, clock);

        store.write(record(1, "m-1", T0, payload(1)));

        assertThat(logs.list).filteredOn(e -> e.getLevel() == Level.ERROR).singleElement()
                .extracting(ILoggingEvent::getFormattedMessage).asString()
                .contains("bucket=photos", "object=cat.jpg", "event=s3:ObjectCreated:Put", "msg_id=m-1",
                        "error=stream sealed");
    }

    @Test
    void noFailedDirectoryUntilTheFirstWrite() throws IOException {
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET, clock);
        store.maintain();
        assertThat(queueDir.resolve("failed")).doesNotExist();
        assertThat(FailedEventStore.list(queueDir)).isEmpty();

        store.write(record(1, "m-1", T0, payload(1)));

        assertThat(queueDir.resolve("failed")).isDirectory();
    }

    @Test
    void trimsTheOldestAtTheCountBoundWithAWarning() throws IOException {
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET, limits(3), clock);
        for (int i = 1; i <= 3; i++) {
            store.write(record(i, "m-" + i, T0.plusSeconds(i), payload(i)));
        }
        String oldest = T0.plusSeconds(1).toEpochMilli() + "-m-1.json";

        store.write(record(4, "m-4", T0.plusSeconds(4), payload(4)));

        assertThat(store.count()).isEqualTo(3);
        assertThat(names()).containsExactly(
                T0.plusSeconds(2).toEpochMilli() + "-m-2.json",
                T0.plusSeconds(3).toEpochMilli() + "-m-3.json",
                T0.plusSeconds(4).toEpochMilli() + "-m-4.json");
        assertThat(logs.list).filteredOn(e -> e.getLevel() == Level.WARN).singleElement()
                .extracting(ILoggingEvent::getFormattedMessage).asString()
                .contains("file=" + oldest, "msg_id=m-1", "limit=3");
    }

    @Test
    void expiresRecordsOlderThanRetentionOnMaintenance() throws IOException {
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET, clock);
        store.write(record(1, "m-1", T0, payload(1)));
        store.write(record(2, "m-2", T0.plus(Duration.ofHours(1)), payload(2)));

        clock.set(T0.plus(Duration.ofHours(72)));
        assertThat(store.maintain().expired()).isZero(); // exactly 72 h old is not yet older

        clock.set(T0.plus(Duration.ofHours(72)).plusMillis(1));
        FailedEventStore.MaintenanceReport report = store.maintain();

        assertThat(report.expired()).isEqualTo(1);
        assertThat(store.count()).isEqualTo(1);
        assertThat(names()).containsExactly(T0.plus(Duration.ofHours(1)).toEpochMilli() + "-m-2.json");
    }

    @Test
    void aConfiguredRetentionOfOneHourExpiresWhatIsOlderThanAnHour() throws IOException {
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET,
            new FailedEventStore.Limits(100, Duration.ofHours(1)), clock);
        store.write(record(1, "m-1", T0, payload(1)));
        store.write(record(2, "m-2", T0.plus(Duration.ofMinutes(30)), payload(2)));

        clock.set(T0.plus(Duration.ofHours(1)));
        assertThat(store.maintain().expired()).isZero();

        clock.set(T0.plus(Duration.ofHours(1)).plusMillis(1));
        assertThat(store.maintain().expired()).isEqualTo(1);
        assertThat(names()).containsExactly(T0.plus(Duration.ofMinutes(30)).toEpochMilli() + "-m-2.json");
    }

    @Test
    void oldestAgeFollowsTheOldestRecordThroughRemovalAndExpiry() throws IOException {
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET, clock);
        assertThat(store.oldestAge()).isEmpty();
        FailedEventStore.StoredFile first = store.write(record(1, "m-1", T0, payload(1)));
        store.write(record(2, "m-2", T0.plus(Duration.ofHours(1)), payload(2)));

        clock.set(T0.plus(Duration.ofHours(48)));
        assertThat(store.oldestAge()).hasValue(Duration.ofHours(48));

        store.remove(List.of(first));
        assertThat(store.oldestAge()).as("the next oldest").hasValue(Duration.ofHours(47));
        assertThat(FailedEventStore.open(queueDir, TARGET, clock).oldestAge()).as("seeded at open")
                .hasValue(Duration.ofHours(47));

        clock.set(T0.plus(Duration.ofHours(73)).plusMillis(1));
        store.maintain();
        assertThat(store.oldestAge()).as("expired").isEmpty();
    }

    @Test
    void countIsSeededFromTheDirectoryAtOpen() throws IOException {
        FailedEventStore first = FailedEventStore.open(queueDir, TARGET, clock);
        for (int i = 1; i <= 3; i++) {
            first.write(record(i, "m-" + i, T0.plusSeconds(i), payload(i)));
        }
        Files.writeString(queueDir.resolve("failed/README.txt"), "not a record");

        FailedEventStore reopened = FailedEventStore.open(queueDir, TARGET, clock);

        assertThat(reopened.count()).isEqualTo(3);
    }

    @Test
    void maintenanceReconcilesACountDriftedByOutsideChanges() throws IOException {
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET, clock);
        List<FailedEventStore.StoredFile> written = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            written.add(store.write(record(i, "m-" + i, T0.plusSeconds(i), payload(i))));
        }
        Files.delete(written.get(0).path());
        Files.delete(written.get(1).path());

        assertThat(store.count()).isEqualTo(3); // cached: no scan on the hot path
        FailedEventStore.MaintenanceReport report = store.maintain();

        assertThat(report.cachedBefore()).isEqualTo(3);
        assertThat(report.onDisk()).isEqualTo(1);
        assertThat(store.count()).isEqualTo(1);
    }

    @Test
    void concurrentWritersNeverExceedTheBound() throws Exception {
        int bound = 20;
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET, limits(bound), clock);
        int threads = 4;
        int perThread = 40;
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        CountDownLatch start = new CountDownLatch(1);
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger maxSeen = new AtomicInteger();
        try {
            Future<?> watcher = pool.submit(() -> {
                while (writing.get()) {
                    maxSeen.accumulateAndGet(store.count(), Math::max);
                }
                return null;
            });
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                writers.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        int n = thread * perThread + i;
                        store.write(record(n, "m-" + thread + "-" + i, T0.plusMillis(n), payload(n)));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> w : writers) {
                w.get(60, TimeUnit.SECONDS);
            }
            writing.set(false);
            watcher.get(10, TimeUnit.SECONDS);
        } finally {
            writing.set(false);
            pool.shutdownNow();
        }

        assertThat(maxSeen.get()).isLessThanOrEqualTo(bound);
        assertThat(store.count()).isEqualTo(bound);
        assertThat(names()).hasSize(bound);
        assertThat(logs.list).filteredOn(e -> e.getLevel() == Level.WARN).hasSize(threads * perThread - bound);
    }

    @Test
    void writeIsAtomicNoTempFilesLeft() throws IOException {
        Path failed = Files.createDirectories(queueDir.resolve("failed"));
        Path leftover = Files.writeString(failed.resolve(".tmp-" + T0.toEpochMilli() + "-m-0.json"), "{\"id\":");
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET, clock);
        for (int i = 1; i <= 5; i++) {
            store.write(record(i, "m-" + i, T0.plusSeconds(i), payload(i)));
        }

        assertThat(leftover).doesNotExist();
        try (Stream<Path> files = Files.list(failed)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .hasSize(5)
                    .allMatch(n -> n.matches("\\d{13}-m-\\d\\.json"));
        }
        for (FailedEventStore.StoredFile f : FailedEventStore.list(queueDir)) {
            assertThat(FailedEventStore.read(f.path()).natsMsgId()).isEqualTo(f.msgId());
        }
    }

    @Test
    void ioFailureThrowsAndWritesNothingVisible() throws IOException {
        // Root ignores permissions, so occupy the directory's name with a regular file instead.
        Path occupied = Files.writeString(queueDir.resolve("failed"), "in the way");
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET, clock);

        assertThatThrownBy(() -> store.write(record(1, "m-1", T0, payload(1)))).isInstanceOf(IOException.class);

        assertThat(store.count()).isZero();
        assertThat(occupied).isRegularFile().hasContent("in the way");
        try (Stream<Path> files = Files.list(queueDir)) {
            assertThat(files).containsExactly(occupied);
        }
        assertThat(logs.list).noneMatch(e -> e.getLevel() == Level.ERROR);
    }

    @Test
    void listShowsRecordsOldestFirstWithoutTheStore() throws IOException {
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET, clock);
        store.write(record(3, "m-3", T0.plusSeconds(300), payload(3)));
        store.write(record(1, "m-1", Instant.ofEpochMilli(999_999_999_999L), payload(1)));
        store.write(record(2, "m-2", T0.plusSeconds(200), payload(2)));

        List<FailedEventStore.StoredFile> listed = FailedEventStore.list(queueDir);

        assertThat(listed).extracting(FailedEventStore.StoredFile::msgId).containsExactly("m-1", "m-2", "m-3");
        assertThat(listed.get(0).fileName()).isEqualTo("0999999999999-m-1.json");
        assertThat(FailedEventStore.read(listed.get(1).path())).isEqualTo(record(2, "m-2", T0.plusSeconds(200), payload(2)));
    }

    @Test
    void readRejectsATruncatedRecordWithAClearError() throws IOException {
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET, clock);
        Path file = store.write(record(1, "m-1", T0, payload(1))).path();
        byte[] whole = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(whole, whole.length / 2));

        assertThatThrownBy(() -> FailedEventStore.read(file))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("malformed JSON");
        assertThat(store.maintain().onDisk()).isEqualTo(1); // maintenance judges by name, never by content
    }

    @Test
    void readNamesTheFieldsARecordIsMissing() throws IOException {
        Path failed = Files.createDirectories(queueDir.resolve("failed"));
        Path file = Files.writeString(failed.resolve(T0.toEpochMilli() + "-m-1.json"),
                "{\"id\": 1, \"nats_msg_id\": \"m-1\", \"future_field\": {\"x\": [1]}}");

        assertThatThrownBy(() -> FailedEventStore.read(file))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("missing fields")
                .hasMessageContaining("failed_at")
                .hasMessageContaining("payload");
    }

    @Test
    void readRefusesARecordWhoseMsgIdBreaksTheRulesSoReplayCannotQueueIt() throws IOException {
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET, clock);
        Path file = store.write(record(1, "m-1", T0, payload(1))).path();
        for (String bad : List.of("m 1", "x".repeat(129), "caf\\u00e9")) {
            String edited = Files.readString(file).replaceFirst("(\"nats_msg_id\"\\s*:\\s*)\"m-1\"",
                    "$1\"" + java.util.regex.Matcher.quoteReplacement(bad) + "\"");
            assertThat(edited).as("the edit took").contains("\"" + bad + "\"");
            Path copy = Files.writeString(file.resolveSibling("edited.json"), edited);
            assertThatThrownBy(() -> FailedEventStore.read(copy))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(copy.toString())
                    .hasMessageContaining("msg id");
        }
    }

    @Test
    void maintenanceRunsOnItsOwnSchedulerForEveryRegisteredStore() throws IOException {
        Path otherQueueDir = queueDir.resolve("audit-nats-second");
        FailedEventStore first = FailedEventStore.open(queueDir, TARGET, clock);
        FailedEventStore second = FailedEventStore.open(otherQueueDir, "audit second:nats", clock);
        first.write(record(1, "m-1", T0, payload(1)));
        second.write(record(2, "m-2", T0, payload(2)));
        clock.set(T0.plus(Duration.ofHours(73)));

        try (FailedStoreMaintenance maintenance = FailedStoreMaintenance.start(Duration.ofMillis(20))) {
            maintenance.add(first);
            maintenance.add(second);
            Awaitility.await().atMost(Duration.ofSeconds(5))
                    .until(() -> first.count() == 0 && second.count() == 0);
        }
        assertThat(FailedEventStore.list(queueDir)).isEmpty();
        assertThat(FailedEventStore.list(otherQueueDir)).isEmpty();
    }

    private List<String> names() {
        try {
            return FailedEventStore.list(queueDir).stream().map(FailedEventStore.StoredFile::fileName).toList();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static FailedEventStore.Limits limits(int maxRecords) {
        return new FailedEventStore.Limits(maxRecords, Duration.ofHours(72));
    }

    private static byte[] payload(int n) {
        return ("{\"EventName\":\"s3:ObjectCreated:Put\",\"n\":" + n + "}").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A replay deletes the files it queued only once their appends are durable; meanwhile the
     * dispatcher may already have failed the same event again, within the same millisecond. The
     * second record must not take the first one's name, or the replay's delete would remove it.
     */
    @Test
    void aRecordFailingAgainInTheSameMillisecondKeepsItsOwnFileWhenTheReplayDeletesTheFirst() throws IOException {
        FailedEventStore store = FailedEventStore.open(queueDir, TARGET, clock);
        byte[] payload = "{\"n\":1}".getBytes(StandardCharsets.UTF_8);
        FailedEventStore.StoredFile first = store.write(record(1, "same-event", T0, payload));

        FailedEventStore.StoredFile again = store.write(record(2, "same-event", T0, payload));
        assertThat(again.path()).isNotEqualTo(first.path());
        assertThat(again.failedAt()).isEqualTo(T0.plusMillis(1));
        assertThat(FailedEventStore.read(again.path()).failedAt()).as("name and record agree").isEqualTo(again.failedAt());
        assertThat(FailedEventStore.read(first.path()).id()).as("the first record is untouched").isEqualTo(1);

        store.remove(List.of(first));
        assertThat(store.files()).extracting(FailedEventStore.StoredFile::path).containsExactly(again.path());
        assertThat(FailedEventStore.read(again.path()).id()).isEqualTo(2);
        assertThat(store.count()).isEqualTo(1);
    }

    private static FailedRecord record(long id, String msgId, Instant failedAt, byte[] payload) {
        return FailedRecord.terminal(id, msgId, TARGET, "events.s3",
                new EventMetadata(TargetKind.NOTIFY, "photos", "cat.jpg", "s3:ObjectCreated:Put", ""),
                failedAt.minusSeconds(5), failedAt, "stream sealed", 1, payload);
    }

    /** A clock the test moves by hand, so retention needs no waiting. */
    private static final class MutableClock extends Clock {
        private volatile Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void set(Instant instant) {
            now = instant;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}

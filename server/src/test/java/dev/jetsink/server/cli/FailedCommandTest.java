package dev.jetsink.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.failed.FailedEventStore.StoredFile;
import dev.jetsink.internal.failed.FailedEventStore;
import dev.jetsink.internal.failed.FailedRecord;
import dev.jetsink.server.ExitCode;
import dev.jetsink.server.testing.CliRun;
import dev.jetsink.testkit.FakeClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class FailedCommandTest {
    private static final Instant T0 = Instant.parse("2026-12-02T10:00:00.250Z");
    private static final String TARGET = "notify primary:nats";

    @TempDir
    Path queueDir;

    private FailedEventStore store;

    @BeforeEach
    void openStore() {
        store = FailedEventStore.open(queueDir, TARGET, new FakeClock(T0));
    }

    private StoredFile fail(String msgId, String bucket, String object, Instant failedAt, String detail, String payload)
            throws Exception {
        EventMetadata meta = new EventMetadata(TargetKind.NOTIFY, bucket, object, "s3:ObjectCreated:Put", "application/json");
        return store.write(FailedRecord.terminal(7, msgId, TARGET, "rustfs.events", meta, failedAt.minusSeconds(40),
            failedAt, detail, 3, payload.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void listShowsEachFailedEventOldestFirst() throws Exception {
        fail("b-msg", "photos", "late.jpg", T0.plusSeconds(5), "server error code 10054 status 400", "{\"n\":2}");
        fail("a-msg", "photos", "early.jpg", T0, "server error code 10109 status 400", "{\"n\":1}");

        CliRun run = CliRun.of("failed", "list", queueDir.toString());

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out).contains("2026-12-02T10:00:00.250Z").contains("a-msg")
            .contains("photos/early.jpg s3:ObjectCreated:Put").contains("server error code 10109 status 400");
        assertThat(run.out.indexOf("a-msg")).isLessThan(run.out.indexOf("b-msg"));
        assertThat(run.out).contains("2 failed record(s)");
    }

    @Test
    void listOfATargetThatNeverFailedIsEmpty() {
        CliRun run = CliRun.of("failed", "list", queueDir.toString());

        assertThat(run.exitCode).isZero();
        assertThat(run.out).contains("0 failed record(s)");
        assertThat(FailedEventStore.directory(queueDir)).as("reading creates nothing").doesNotExist();
    }

    @Test
    void listNamesAnUnreadableRecordAndStillListsTheOthers() throws Exception {
        fail("good-msg", "b", "o", T0, "publish rejected", "{}");
        Files.writeString(FailedEventStore.directory(queueDir).resolve("0001764669600000-broken.json"), "{not json");

        CliRun run = CliRun.of("failed", "list", queueDir.toString());

        assertThat(run.exitCode).isEqualTo(ExitCode.FAILURE);
        assertThat(run.out).contains("good-msg").contains("unreadable record 0001764669600000-broken.json")
            .contains("1 failed record(s), 1 unreadable");
        assertThat(run.err).contains("malformed JSON");
    }

    @Test
    void showByMsgIdPrintsTheWholeRecordWithThePayloadAsJson() throws Exception {
        fail("show-me", "photos", "cat.jpg", T0, "server error code 10054 status 400",
            "{\"EventName\":\"s3:ObjectCreated:Put\",\"Key\":\"photos/cat.jpg\"}");

        CliRun run = CliRun.of("failed", "show", queueDir.toString(), "show-me");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out).contains("\n  \"nats_msg_id\" : \"show-me\""); // pretty-printed
        JsonNode json = new ObjectMapper().readTree(run.out);
        assertThat(json.get("target").asText()).isEqualTo(TARGET);
        assertThat(json.get("kind").asText()).isEqualTo("notify");
        assertThat(json.get("error_class").asText()).isEqualTo("terminal");
        assertThat(json.get("error_detail").asText()).isEqualTo("server error code 10054 status 400");
        assertThat(json.get("retry_count").asInt()).isEqualTo(3);
        assertThat(json.get("failed_at").asText()).isEqualTo("2026-12-02T10:00:00.250Z");
        assertThat(json.get("queued_at").asText()).isEqualTo("2026-12-02T09:59:20.250Z");
        assertThat(json.get("payload").get("Key").asText()).isEqualTo("photos/cat.jpg");
    }

    @Test
    void showByFileNameFromTheFailedDirectory() throws Exception {
        StoredFile file = fail("by-file", "b", "o", T0, "publish rejected", "{}");

        CliRun run = CliRun.of("failed", "show", queueDir.toString(), file.fileName());

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out).contains("\"nats_msg_id\" : \"by-file\"");
    }

    @Test
    void showFindsAMsgIdWhoseCharactersTheFileNameCannotCarry() throws Exception {
        fail("odd/id:1", "b", "o", T0, "publish rejected", "{}");

        CliRun run = CliRun.of("failed", "show", queueDir.toString(), "odd/id:1");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out).contains("\"nats_msg_id\" : \"odd/id:1\"");
    }

    @Test
    void showKeepsAPayloadThatIsNotJsonAsText() throws Exception {
        fail("text-payload", "b", "o", T0, "publish rejected", "plain text, not json");

        CliRun run = CliRun.of("failed", "show", queueDir.toString(), "text-payload");

        assertThat(run.out).contains("\"payload\" : \"plain text, not json\"");
    }

    @Test
    void showOfAnUnknownIdIsAnError() throws Exception {
        fail("present", "b", "o", T0, "publish rejected", "{}");

        CliRun run = CliRun.of("failed", "show", queueDir.toString(), "absent");

        assertThat(run.exitCode).isEqualTo(ExitCode.FAILURE);
        assertThat(run.err).contains("no failed record absent in " + FailedEventStore.directory(queueDir));
    }

    @Test
    void aMistypedTargetDirectoryIsAnErrorNotAnEmptyStore() {
        CliRun run = CliRun.of("failed", "list", queueDir.resolve("notify-nats-typo").toString());

        assertThat(run.exitCode).isEqualTo(ExitCode.FAILURE);
        assertThat(run.err).contains("no such target queue directory");
    }

    @Test
    void theFailedDirectoryItselfIsAcceptedInPlaceOfTheTargetDirectory() throws Exception {
        fail("via-failed-dir", "b", "o", T0, "publish rejected", "{}");

        CliRun run = CliRun.of("failed", "list", FailedEventStore.directory(queueDir).toString());

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out).contains("via-failed-dir").contains("1 failed record(s)");
    }

    @Test
    void failedWithoutASubcommandIsAUsageError() {
        assertThat(CliRun.of("failed").exitCode).isEqualTo(ExitCode.USAGE);
    }
}

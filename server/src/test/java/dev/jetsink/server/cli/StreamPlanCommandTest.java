package dev.jetsink.server.cli;

import dev.jetsink.internal.nats.StreamFacts;
import dev.jetsink.internal.nats.StreamValidator;
import dev.jetsink.internal.nats.ValidationResult;
import dev.jetsink.server.ExitCode;
import dev.jetsink.server.testing.CliRun;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class StreamPlanCommandTest {

    @Test
    void requiredWindowAtTheDefaultAckTimeoutIs274Seconds() {
        CliRun run = CliRun.of("stream-plan");
        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out).contains("required: 274s").contains("5 attempts × 30 s ack timeout");
    }

    @ParameterizedTest
    @CsvSource({"10,174", "30,274", "31,279", "120,724"})
    void requiredWindowGrowsFiveSecondsPerSecondOfAckTimeout(int ackTimeout, long window) {
        CliRun run = CliRun.of("stream-plan", "--ack-timeout", Integer.toString(ackTimeout));
        assertThat(run.out).contains("required: " + window + "s");
        assertThat(run.out).contains("\"duplicate_window\" : " + window * 1_000_000_000L);
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 30, 120})
    void printedStreamConfigPassesStreamValidation(int ackTimeout) throws Exception {
        CliRun run = CliRun.of("stream-plan", "--json", "--ack-timeout", Integer.toString(ackTimeout),
            "--subject", "store.events.notify", "--stream", "EVENTS", "--replicas", "3");
        assertThat(run.exitCode).as(run.toString()).isZero();

        StreamConfiguration config = StreamConfiguration.instance(run.out);
        ValidationResult result = new StreamValidator("EVENTS", "store.events.notify", ackTimeout)
            .validate(factsOf(config));

        assertThat(result).isInstanceOf(ValidationResult.Passed.class);
        assertThat(((ValidationResult.Passed) result).advice()).as("3 replicas on file storage draw no advice").isEmpty();
        assertThat(config.getStorageType()).isEqualTo(StorageType.File);
        assertThat(config.getReplicas()).isEqualTo(3);
        assertThat(config.getSubjects()).containsExactly("store.events.notify");
        assertThat(config.getNoAck()).isFalse();
        assertThat(run.out).contains("\"no_ack\" : false");
    }

    @Test
    void planForAShorterAckTimeoutFailsValidationAtALongerOne() throws Exception {
        // The window is tied to the timeout: raising the timeout without re-planning fails.
        CliRun run = CliRun.of("stream-plan", "--json", "--ack-timeout", "30");
        ValidationResult result = new StreamValidator(StreamPlanCommand.DEFAULT_STREAM,
            StreamPlanCommand.DEFAULT_SUBJECT, 31).validate(factsOf(StreamConfiguration.instance(run.out)));
        assertThat(result).isInstanceOfSatisfying(ValidationResult.Failed.class,
            f -> assertThat(f.has(ValidationResult.Cause.DUPLICATE_WINDOW_TOO_SMALL)).isTrue());
    }

    @Test
    void aTemplatedSubjectPlansAStreamOverItsWholeSubjectSpace() throws Exception {
        CliRun run = CliRun.of("stream-plan", "--stream", "ROUTED", "--subject", "rustfs.events.{bucket}.{key_prefix:2}");
        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out).contains("stream subjects\n  rustfs.events.*.>  (every subject the template"
            + " rustfs.events.{bucket}.{key_prefix:2} yields")
            .contains("--subjects 'rustfs.events.*.>'")
            .contains("RUSTFS_NOTIFY_NATS_SUBJECT=rustfs.events.{bucket}.{key_prefix:2}");
        CliRun json = CliRun.of("stream-plan", "--json", "--stream", "ROUTED", "--subject", "rustfs.events.{bucket}.{key_prefix:2}");
        StreamConfiguration config = StreamConfiguration.instance(json.out);
        assertThat(config.getSubjects()).containsExactly("rustfs.events.*.>");
        assertThat(new StreamValidator("ROUTED", "rustfs.events.*.>", 30).validate(factsOf(config)))
            .isInstanceOf(ValidationResult.Passed.class);

        CliRun bad = CliRun.of("stream-plan", "--subject", "rustfs.{nope}");
        assertThat(bad.exitCode).isNotZero();
        assertThat(bad.err).contains("--subject: unknown placeholder {nope}");
    }

    @Test
    void natsCliEquivalentCarriesTheSameSettings() {
        CliRun run = CliRun.of("stream-plan", "--stream", "AUDIT", "--subject", "store.audit", "--replicas", "5",
            "--ack-timeout", "60");
        assertThat(run.out).contains("nats stream add AUDIT --subjects store.audit --storage file"
            + " --retention limits --discard old --replicas 5 --dupe-window 424s --ack --defaults");
        assertThat(run.out).contains("nats stream add AUDIT --config stream.json");
        assertThat(run.out).contains("RUSTFS_NOTIFY_NATS_JETSTREAM_STREAM_NAME=AUDIT")
            .contains("RUSTFS_NOTIFY_NATS_JETSTREAM_ACK_TIMEOUT_SECS=60")
            .contains("RUSTFS_NOTIFY_NATS_SUBJECT=store.audit");
    }

    @Test
    void fewerThanThreeReplicasPrintsTheDurabilityNote() {
        assertThat(CliRun.of("stream-plan", "--replicas", "1").out).contains("not the loss of the node");
        assertThat(CliRun.of("stream-plan", "--replicas", "3").out).doesNotContain("not the loss of the node");
    }

    @Test
    void anR1PlanSaysHowToMakeTheBrokersAcknowledgementSurviveAPowerLoss() {
        assertThat(CliRun.of("stream-plan", "--replicas", "1").out)
            .contains("before nats-server has fsynced it").contains("sync_interval: always");
        assertThat(CliRun.of("stream-plan", "--replicas", "2").out).doesNotContain("sync_interval");
        assertThat(CliRun.of("stream-plan", "--replicas", "3").out).doesNotContain("sync_interval");
    }

    @Test
    void queueLimitSizingIsPeakRateTimesOutagePlusHeadroom() {
        CliRun run = CliRun.of("stream-plan", "--peak-rate", "50", "--outage-secs", "3600");
        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out).contains("50 events/s x 3600 s outage = 180000 entries")
            .contains("with 25% headroom: 225000")
            .contains("RUSTFS_NOTIFY_NATS_QUEUE_LIMIT=225000")
            .contains("MiB at 1024 B per event");
    }

    @Test
    void withoutRatesThePlanExplainsHowToSizeTheQueue() {
        assertThat(CliRun.of("stream-plan").out).contains("give --peak-rate R --outage-secs T")
            .contains("50 x 3600 = 180000");
    }

    @ParameterizedTest
    @ValueSource(strings = {"9", "121", "0", "thirty"})
    void ackTimeoutOutsideTenToOneHundredTwentyIsAUsageError(String value) {
        CliRun run = CliRun.of("stream-plan", "--ack-timeout", value);
        assertThat(run.exitCode).isEqualTo(ExitCode.USAGE);
        assertThat(run.err).contains("jetstream_ack_timeout_secs must be between 10 and 120 seconds");
        assertThat(run.out).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "6", "-1"})
    void replicasOutsideOneToFiveIsAUsageError(String value) {
        CliRun run = CliRun.of("stream-plan", "--replicas", value);
        assertThat(run.exitCode).isEqualTo(ExitCode.USAGE);
        assertThat(run.err).contains("--replicas must be between 1 and 5");
    }

    @Test
    void peakRateWithoutOutageIsAUsageError() {
        CliRun run = CliRun.of("stream-plan", "--peak-rate", "50");
        assertThat(run.exitCode).isEqualTo(ExitCode.USAGE);
        assertThat(run.err).contains("--outage-secs");
    }

    @Test
    void nonPositivePeakRateIsAUsageError() {
        CliRun run = CliRun.of("stream-plan", "--peak-rate", "0", "--outage-secs", "60");
        assertThat(run.exitCode).isEqualTo(ExitCode.USAGE);
        assertThat(run.err).contains("--peak-rate must be a positive number");
    }

    @Test
    void wildcardSubjectIsAUsageError() {
        CliRun run = CliRun.of("stream-plan", "--subject", "events.>");
        assertThat(run.exitCode).isEqualTo(ExitCode.USAGE);
        assertThat(run.err).contains("--subject must not contain wildcards");
    }

    @Test
    void streamNameWithADotIsAUsageError() {
        CliRun run = CliRun.of("stream-plan", "--stream", "my.events");
        assertThat(run.exitCode).isEqualTo(ExitCode.USAGE);
        assertThat(run.err).contains("--stream must not contain");
    }

    @Test
    void applyNeedsATargetOrAServerAndAStreamName() {
        CliRun noServer = CliRun.of("stream-plan", "--apply", "--stream", "EVENTS");
        assertThat(noServer.exitCode).isEqualTo(ExitCode.USAGE);
        assertThat(noServer.err).contains("--apply requires --target ID (or --server URL) and a stream");
        CliRun noStream = CliRun.of("stream-plan", "--apply", "--server", "127.0.0.1:4222");
        assertThat(noStream.exitCode).isEqualTo(ExitCode.USAGE);
        assertThat(noStream.out).isEmpty();
    }

    @Test
    void serverWithoutApplyIsAUsageError() {
        CliRun run = CliRun.of("stream-plan", "--server", "127.0.0.1:4222");
        assertThat(run.exitCode).isEqualTo(ExitCode.USAGE);
        assertThat(run.err).contains("only used with --apply");
    }

    @Test
    void malformedServerIsAUsageErrorBeforeAnythingIsPrinted() {
        CliRun run = CliRun.of("stream-plan", "--apply", "--stream", "EVENTS", "--server", "http://example:80");
        assertThat(run.exitCode).isEqualTo(ExitCode.USAGE);
        assertThat(run.err).contains("--server:");
        assertThat(run.out).isEmpty();
    }

    /** What a stream-info lookup of a stream created from {@code config} would report. */
    static StreamFacts factsOf(StreamConfiguration config) {
        return new StreamFacts(config.getName(), config.getSubjects(), config.getNoAck(), config.getSealed(),
            config.getMirror() != null, config.getDuplicateWindow() == null ? Duration.ZERO : config.getDuplicateWindow(),
            config.getReplicas(), config.getStorageType() == StorageType.Memory
                ? StreamFacts.Storage.MEMORY : StreamFacts.Storage.FILE,
            config.getMaximumMessageSize());
    }

    @Test
    void maxAgeAndMaxBytesReachTheJsonAndTheNatsCliLine() throws Exception {
        CliRun json = CliRun.of("stream-plan", "--json", "--max-age", "7d", "--max-bytes", "10GiB");
        assertThat(json.exitCode).as(json.toString()).isZero();
        StreamConfiguration config = StreamConfiguration.instance(json.out);
        assertThat(config.getMaxAge()).isEqualTo(Duration.ofDays(7));
        assertThat(config.getMaxBytes()).isEqualTo(10L * 1024 * 1024 * 1024);
        assertThat(new StreamValidator(StreamPlanCommand.DEFAULT_STREAM, StreamPlanCommand.DEFAULT_SUBJECT, 30)
            .validate(factsOf(config))).isInstanceOf(ValidationResult.Passed.class);
        assertThat(CliRun.of("stream-plan", "--max-age", "7d").out).contains("--dupe-window 274s --max-age 168h --ack");

        CliRun run = CliRun.of("stream-plan", "--max-age", "24h", "--max-bytes", "500MB");
        assertThat(run.out).contains("--dupe-window 274s --max-age 24h --max-bytes 500000000 --ack --defaults")
            .contains("max age:   1d").contains("max bytes: 500000000").doesNotContain("warning: no --max-age");
    }

    @Test
    void theJsonOfAPlanWithoutLimitsCarriesTheWarningAndStillReadsAsAStreamConfig() throws Exception {
        CliRun json = CliRun.of("stream-plan", "--json");
        assertThat(json.exitCode).as(json.toString()).isZero();
        com.fasterxml.jackson.databind.JsonNode warnings = new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(json.out).get("warnings");
        assertThat(warnings.isArray()).as(json.out).isTrue();
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0).asText())
            .startsWith("no --max-age or --max-bytes: the stream keeps every event for ever");
        assertThat(StreamConfiguration.instance(json.out).getSubjects()).containsExactly(StreamPlanCommand.DEFAULT_SUBJECT);

        CliRun limited = CliRun.of("stream-plan", "--json", "--max-age", "7d");
        assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(limited.out).get("warnings"))
            .as("a plan with a limit has nothing to warn of").isEmpty();
    }

    @Test
    void aPlanWithoutLimitsWarnsThatTheStreamGrowsForEver() {
        CliRun run = CliRun.of("stream-plan");
        assertThat(run.exitCode).isZero();
        assertThat(run.out).contains("warning: no --max-age or --max-bytes: the stream keeps every event for ever");
        assertThat(CliRun.of("stream-plan", "--max-bytes", "1TiB").out).doesNotContain("warning: no --max-age");
    }

    @Test
    void aMaxAgeBelowTheDuplicateWindowIsRefused() {
        CliRun run = CliRun.of("stream-plan", "--max-age", "4m");
        assertThat(run.exitCode).isEqualTo(ExitCode.USAGE);
        assertThat(run.err).contains("--max-age 4m is shorter than the required duplicate window of 274s");
        assertThat(CliRun.of("stream-plan", "--max-age", "274s").exitCode).isZero();
        assertThat(CliRun.of("stream-plan", "--max-age", "273s").exitCode).isEqualTo(ExitCode.USAGE);
    }

    @ParameterizedTest
    @CsvSource({"--max-age,7 days", "--max-age,0d", "--max-age,1.5h", "--max-bytes,ten", "--max-bytes,10XB",
        "--max-bytes,0", "--max-bytes,99999999TiB"})
    void malformedLimitsAreUsageErrorsNamingTheOption(String option, String value) {
        CliRun run = CliRun.of("stream-plan", option, value);
        assertThat(run.exitCode).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err).contains(option);
    }
}

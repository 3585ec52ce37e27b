package dev.jetsink;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The builder speaks its own terms: setters record typed values and refuse only a
 * null argument; build() checks everything at once and names the setter, not the daemon's key.
 * No server is needed: each of these fails before a connection is tried.
 */
class SinkBuilderTest {
    @TempDir
    Path queue;

    private SinkBuilder<?> valid() {
        return Jetsink.notifySink().servers("nats://127.0.0.1:4222").subject("app.events").queueDir(queue);
    }

    private static List<String> problems(SinkBuilder<?> builder) {
        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class, builder::build);
        assertThat(e).as("build() refuses").isNotNull();
        assertThat(e.getMessage()).doesNotContain("RUSTFS_");
        return e.problems().stream().map(ConfigProblem::message).toList();
    }

    @Test
    void settersRecordWithoutCheckingSoImpossibleValuesFailOnlyAtBuild() {
        SinkBuilder<?> builder = valid().queueLimit(0).publishWindow(-1).ackTimeout(Duration.ofSeconds(5));
        assertThat(builder).isNotNull();
        assertThat(queue).isEmptyDirectory();
    }

    @Test
    void aZeroQueueLimitIsRefusedNotReadAsTheDefault() {
        assertThat(problems(valid().queueLimit(0))).containsExactly("queueLimit(...) must be at least 1: 0");
        assertThat(problems(valid().queueLimit(-3))).containsExactly("queueLimit(...) must be at least 1: -3");
    }

    @Test
    void publishWindowOutsideOneTo4096IsRefusedAtBuild() {
        assertThat(problems(valid().publishWindow(0))).containsExactly("publishWindow(...) must be between 1 and 4096");
        assertThat(problems(valid().publishWindow(4097))).containsExactly("publishWindow(...) must be between 1 and 4096");
    }

    @Test
    void failedRetentionIsBoundedAndTheAgeIsWholeHours() {
        assertThat(problems(valid().failedMaxRecords(99)))
            .containsExactly("failedMaxRecords(...) must be a whole number of records from 100 to 1000000");
        assertThat(problems(valid().failedMaxAge(Duration.ofDays(91))))
            .containsExactly("failedMaxAge(...) must be a whole number of hours from 1 to 2160 (90 days)");
        assertThat(problems(valid().failedMaxAge(Duration.ofMinutes(90))))
            .containsExactly("failedMaxAge(...) must be whole hours: PT1H30M");
    }

    @Test
    void ackTimeoutMustBeWholeSecondsFromTenTo120() {
        assertThat(problems(valid().ackTimeout(Duration.ofSeconds(5))))
            .containsExactly("ackTimeout(...) must be between 10 and 120 seconds");
        assertThat(problems(valid().ackTimeout(Duration.ofMillis(30_500))))
            .containsExactly("ackTimeout(...) must be whole seconds: PT30.5S");
    }

    @Test
    void anEmptyQueueDirIsRefusedAtBuildSayingWhy() {
        assertThat(problems(valid().queueDir(Path.of(""))))
            .containsExactly("queueDir(...) must not be the empty path (it would mean the working directory)");
    }

    @Test
    void aQueueDirThatCanNeverBeADirectoryFailsBuildKeepingTheCause() throws Exception {
        Path file = java.nio.file.Files.writeString(queue.resolve("a-file"), "not a directory");
        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class,
            Jetsink.notifySink().servers("nats://127.0.0.1:4222").subject("app.events").queueDir(file.resolve("q"))::build);
        assertThat(e).as("build() refuses").isNotNull();
        assertThat(e.problems()).singleElement().satisfies(p -> {
            assertThat(p.variable()).isEqualTo("queueDir(...)");
            assertThat(p.message()).startsWith("queue directory cannot be used: FileSystemException: ")
                .contains(file.toString()).contains("Not a directory");
        });
        assertThat(e.getCause()).isInstanceOf(java.nio.file.FileSystemException.class);
    }

    @Test
    void theUnnamedTargetIsShownAsDefaultWhileItsQueueDirectoryKeepsItsId() throws Exception {
        try (Sink<?> sink = valid().build()) {
            assertThat(sink.target()).isEqualTo("notify default:nats");
            assertThat(queue.resolve("notify-nats-_")).isDirectory();
        }
    }

    @Test
    void aSecondSinkOnTheSameQueueDirInThisProcessIsToldSo() throws Exception {
        Sink<?> first = valid().build();
        try {
            assertThatThrownBy(() -> valid().build()).isInstanceOf(QueueLockedException.class)
                .hasMessageContaining("in use in this process").hasMessageContaining("another open sink")
                .hasMessageNotContaining("another process");
        } finally {
            first.close();
        }
        try (Sink<?> again = valid().build()) {
            assertThat(again.queueLength()).as("the directory is free once the first sink closed").isZero();
        }
    }

    @Test
    void emptyPathsForTlsAndCredentialsAreRefusedLikeTheQueueDir() {
        assertThat(problems(valid().credentialsFile(Path.of("")).tlsCa(Path.of(""))))
            .containsExactlyInAnyOrder(
                "credentialsFile(...) must not be the empty path (it would mean the working directory)",
                "tlsCa(...) must not be the empty path (it would mean the working directory)");
    }

    @Test
    void noServersOrAnEmptyOneIsReportedAsServers() {
        assertThat(problems(valid().servers())).containsExactly("servers(...) is required");
        assertThat(problems(valid().servers(""))).singleElement().asString().startsWith("servers(...) must be host:port");
    }

    @Test
    void aBadServerAddressIsReportedAsServersWithoutItsCredentials() {
        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class,
            valid().servers("nats://bob:hunter2@a:4222")::build);
        assertThat(e.problems()).extracting(ConfigProblem::variable).containsExactly("servers(...)");
        assertThat(e.getMessage()).doesNotContain("hunter2").contains("***@");
    }

    @Test
    void blankTextIsRefusedAtBuildNamingTheSetter() {
        assertThat(problems(valid().subject(" "))).containsExactly("subject(...) must not be empty");
        assertThat(problems(valid().jetStream(""))).containsExactly("jetStream(...) must not be empty");
        assertThat(problems(valid().token(""))).containsExactly("token(...) must not be empty");
    }

    @Test
    void subjectAndStreamRulesSpeakInSetterTerms() {
        assertThat(problems(valid().subject("a.*"))).containsExactly("subject(...) must not contain wildcards (*, >): a.*");
        assertThat(problems(valid().jetStream("A.B"))).singleElement().asString()
            .startsWith("jetStream(...) must not contain whitespace");
        assertThat(problems(valid().subject("a.{api}"))).singleElement().asString()
            .startsWith("subject(...): {api} is for audit targets");
    }

    @Test
    void twoAuthMethodsAreRefusedInSetterTerms() {
        assertThat(problems(valid().token("t").userPassword("u", "p"))).containsExactly(
            "only one auth method may be set (userPassword(...), token(...), credentialsFile(...) or nkeySeedFile(...))");
    }

    @Test
    void everyProblemIsReportedTogether() {
        SinkBuilder<?> builder = Jetsink.notifySink().subject("a b").queueLimit(0).publishWindow(0)
            .ackTimeout(Duration.ofSeconds(500)).queueDir(Path.of(""));
        assertThat(problems(builder)).containsExactlyInAnyOrder(
            "subject(...) must not contain whitespace: a b",
            "queueDir(...) must not be the empty path (it would mean the working directory)",
            "queueLimit(...) must be at least 1: 0",
            "ackTimeout(...) must be between 10 and 120 seconds",
            "publishWindow(...) must be between 1 and 4096",
            "servers(...) is required");
    }

    @Test
    void aMissingQueueDirIsReportedTogetherWithTheOtherProblems() {
        assertThat(problems(Jetsink.notifySink().servers("nats://127.0.0.1:4222").subject("app.events").publishWindow(0)))
            .containsExactlyInAnyOrder("publishWindow(...) must be between 1 and 4096",
                "a sink keeps every event durable before it is sent: set a queue directory (queueDir)");
    }

    @Test
    void nullArgumentsAreRefusedAtTheSetterNamingTheArgument() {
        assertThatThrownBy(() -> Jetsink.notifySink().queueDir(null)).isInstanceOf(NullPointerException.class)
            .hasMessage("queueDir(...): dir must not be null");
        assertThatThrownBy(() -> Jetsink.notifySink().subject(null)).isInstanceOf(NullPointerException.class)
            .hasMessage("subject(...): subject must not be null");
        assertThatThrownBy(() -> Jetsink.notifySink().servers((String[]) null)).isInstanceOf(NullPointerException.class)
            .hasMessage("servers(...): urls must not be null");
        assertThatThrownBy(() -> Jetsink.notifySink().servers("a:1", null)).isInstanceOf(NullPointerException.class)
            .hasMessage("servers(...): a URL must not be null");
        assertThatThrownBy(() -> Jetsink.notifySink().userPassword("u", null)).isInstanceOf(NullPointerException.class)
            .hasMessage("userPassword(...): password must not be null");
        assertThatThrownBy(() -> Jetsink.notifySink().tlsClientCertificate(Path.of("/c.pem"), null))
            .isInstanceOf(NullPointerException.class).hasMessage("tlsClientCertificate(...): keyPem must not be null");
        assertThatThrownBy(() -> Jetsink.notifySink().ackTimeout(null)).isInstanceOf(NullPointerException.class)
            .hasMessage("ackTimeout(...): timeout must not be null");
        assertThatThrownBy(() -> Jetsink.notifySink().msgIds(null)).isInstanceOf(NullPointerException.class)
            .hasMessage("msgIds(...): mode must not be null");
        assertThatThrownBy(() -> Jetsink.notifySink().listener(null)).isInstanceOf(NullPointerException.class)
            .hasMessage("listener(...): listener must not be null");
    }

    @Test
    void keysFromAnEnvironmentMapKeepTheirNames() {
        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class, () -> Jetsink.notifyFromEnvironment(Map.of(
            "RUSTFS_NOTIFY_NATS_ADDRESS", "nats://no such host:x",
            "RUSTFS_NOTIFY_NATS_PUBLISH_WINDOW", "0")).subject("app.events").queueDir(queue).build());
        assertThat(e).isNotNull();
        assertThat(e.problems()).extracting(ConfigProblem::variable)
            .containsExactlyInAnyOrder("RUSTFS_NOTIFY_NATS_ADDRESS", "RUSTFS_NOTIFY_NATS_PUBLISH_WINDOW");
        assertThat(e.getMessage()).contains("publish_window must be between 1 and 4096");
    }

    @Test
    void aSetterOverridesTheEnvironmentsKeyAndItsProblem() {
        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class, () -> Jetsink.notifyFromEnvironment(Map.of(
            "RUSTFS_NOTIFY_NATS_PUBLISH_WINDOW", "lots", "RUSTFS_NOTIFY_NATS_SUBJECT", "app.events"))
            .servers("nats://127.0.0.1:4222").publishWindow(0).queueDir(queue).build());
        assertThat(e.problems()).extracting(ConfigProblem::message)
            .containsExactly("publishWindow(...) must be between 1 and 4096");
    }

    @Test
    void aSinkBuiltFromSettersStillDeliversNowhereWithoutAQueueDir() {
        assertThat(problems(Jetsink.notifySink().servers("nats://127.0.0.1:4222").subject("app.events")))
            .singleElement().asString().contains("queueDir");
    }
}

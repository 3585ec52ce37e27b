package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class TargetValidatorTest {

    @TempDir
    Path dir;

    /** A valid JetStream target's keys, to which each test adds or removes one thing. */
    private static Map<String, String> valid() {
        Map<String, String> kv = new HashMap<>();
        kv.put("enable", "on");
        kv.put("address", "127.0.0.1:4222");
        kv.put("subject", "rustfs.events");
        kv.put("jetstream_enable", "on");
        kv.put("jetstream_stream_name", "RUSTFS_EVENTS");
        kv.put("queue_dir", "/var/lib/jetsink");
        return kv;
    }

    private static TargetValidation check(Map<String, String> kv) {
        return TargetValidator.validateKeyValues(TargetKind.NOTIFY, "Primary", kv);
    }

    private static Map<String, String> with(String key, String value) {
        Map<String, String> kv = valid();
        kv.put(key, value);
        return kv;
    }

    private static Map<String, String> without(String key) {
        Map<String, String> kv = valid();
        kv.remove(key);
        return kv;
    }

    private static List<String> errors(Map<String, String> kv) {
        return check(kv).errors().stream().map(ConfigProblem::message).toList();
    }

    @Test
    void formatIsOneOfFourAndAwsIsForNotifyTargetsOnly() {
        assertThat(check(with("format", "cloudevents-binary")).target().orElseThrow().format())
            .isEqualTo(dev.jetsink.PayloadFormat.CLOUDEVENTS_BINARY);
        assertThat(check(valid()).target().orElseThrow().format()).isEqualTo(dev.jetsink.PayloadFormat.ENVELOPE);
        assertThat(errors(with("format", "json")))
            .containsExactly("format must be envelope, aws, cloudevents-binary or cloudevents-structured: json");
        Map<String, String> audit = with("format", "aws");
        assertThat(TargetValidator.validateKeyValues(TargetKind.AUDIT, "a", audit).errors())
            .extracting(ConfigProblem::message).singleElement().asString().contains("audit targets take envelope");
        assertThat(errors(audit)).isEmpty();
    }

    @Test
    void aSubjectTemplateIsCheckedForTheTargetsKindNamingThePlaceholder() {
        assertThat(errors(with("subject", "rustfs.events.{bucket}.{event}"))).isEmpty();
        assertThat(errors(with("subject", "rustfs.events.{api}")))
            .containsExactly("subject: {api} is for audit targets (notify events have no API name; use {event})");
        assertThat(errors(with("subject", "rustfs.{bucket}s"))).singleElement().asString()
            .startsWith("subject: a placeholder must be a whole subject token");
        assertThat(TargetValidator.validateKeyValues(TargetKind.AUDIT, "Primary", with("subject", "a.{api}")).errors())
            .isEmpty();
        assertThat(TargetValidator.validateKeyValues(TargetKind.AUDIT, "Primary", with("subject", "a.{key_prefix:2}"))
            .errors()).singleElement().extracting(ConfigProblem::message).asString().contains("is for notify targets");
    }

    @Test
    void validJetStreamTargetBuildsEveryTypedField() {
        Map<String, String> kv = valid();
        kv.put("jetstream_ack_timeout_secs", "45");
        kv.put("publish_window", "64");
        kv.put("queue_limit", "5000");
        kv.put("comment", "primary sink");
        kv.put("tls_required", "YES");
        TargetConfig t = check(kv).target().orElseThrow();
        assertThat(t.id()).isEqualTo("primary");
        assertThat(t.servers()).containsExactly("nats://127.0.0.1:4222");
        assertThat(t.subject()).isEqualTo("rustfs.events");
        assertThat(t.jetstreamEnabled()).isTrue();
        assertThat(t.path()).isEqualTo("jetstream");
        assertThat(t.streamName()).contains("RUSTFS_EVENTS");
        assertThat(t.ackTimeout()).isEqualTo(Duration.ofSeconds(45));
        assertThat(t.publishWindow()).isEqualTo(64);
        assertThat(t.queueLimit()).isEqualTo(5000);
        assertThat(t.comment()).contains("primary sink");
        assertThat(t.tlsRequired()).isTrue();
        assertThat(t.queuePath()).contains(Path.of("/var/lib/jetsink/notify-nats-primary"));
        assertThat(t.displayId()).isEqualTo("notify primary:nats");
        assertThat(t.arn()).isEqualTo("arn:rustfs:sqs::primary:nats");
    }

    @Test
    void unsetKeysTakeTheirDefaults() {
        Map<String, String> kv = Map.of("enable", "on", "address", "nats:4222", "subject", "s");
        TargetConfig t = check(kv).target().orElseThrow();
        assertThat(t.jetstreamEnabled()).isFalse();
        assertThat(t.path()).isEqualTo("core");
        assertThat(t.ackTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(t.publishWindow()).isEqualTo(1024);
        assertThat(t.queueLimit()).isEqualTo(100_000);
        assertThat(t.tlsRequired()).isFalse();
        assertThat(t.queuePath()).isEmpty();
        assertThat(t.username()).isEmpty();
        assertThat(t.streamName()).isEmpty();
    }

    @Test
    void ackTimeoutOutsideTenToOneTwentyIsRejected() {
        for (String v : List.of("9", "121", "0", "abc")) {
            assertThat(errors(with("jetstream_ack_timeout_secs", v)))
                .containsExactly("jetstream_ack_timeout_secs must be between 10 and 120 seconds");
        }
        assertThat(check(with("jetstream_ack_timeout_secs", "10")).valid()).isTrue();
        assertThat(check(with("jetstream_ack_timeout_secs", "120")).valid()).isTrue();
    }

    @Test
    void ackTimeoutIsCheckedEvenWhenJetStreamIsOff() {
        Map<String, String> kv = with("jetstream_ack_timeout_secs", "5");
        kv.put("jetstream_enable", "off");
        assertThat(errors(kv)).containsExactly("jetstream_ack_timeout_secs must be between 10 and 120 seconds");
    }

    @Test
    void jetStreamWithoutStreamNameIsRejected() {
        TargetValidation v = check(without("jetstream_stream_name"));
        assertThat(v.errors()).singleElement().satisfies(p -> {
            assertThat(p.message()).isEqualTo("jetstream_stream_name is required when jetstream_enable is on");
            assertThat(p.variable()).isEqualTo("jetstream_stream_name");
            assertThat(p.target()).isEqualTo("notify primary:nats");
        });
    }

    @Test
    void jetStreamWithoutQueueDirIsRejected() {
        assertThat(errors(without("queue_dir"))).containsExactly("queue_dir is required when jetstream_enable is on");
    }

    @Test
    void corePathNeedsNeitherStreamNameNorQueueDir() {
        Map<String, String> kv = Map.of("enable", "on", "address", "h:1", "subject", "s", "jetstream_enable", "off");
        assertThat(check(kv).valid()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"on", "off", "TRUE", "false", "Yes", "no", "1", "0", "enabled", "DISABLED"})
    void booleansAcceptTheTenSpellingsInAnyCase(String v) {
        assertThat(BooleanValue.parse(v)).isPresent();
        Map<String, String> kv = with("tls_required", v);
        assertThat(check(kv).valid()).isTrue();
    }

    @Test
    void anyOtherBooleanIsRejectedWithTheAcceptedValues() {
        for (String key : List.of("enable", "tls_required", "jetstream_enable")) {
            assertThat(errors(with(key, "tru"))).contains(
                "Invalid " + key + " boolean value: tru (accepted values include on, off, true, false, yes, no, 1, 0)");
        }
    }

    @Test
    void addressAndSubjectAreRequired() {
        assertThat(errors(without("address"))).containsExactly("address is required");
        assertThat(errors(without("subject"))).containsExactly("subject is required");
    }

    @Test
    void addressAcceptsHostPortOrAListOfNatsAndTlsUrls() {
        assertThat(check(with("address", "nats://a:4222, tls://b:4223,nats://c")).target().orElseThrow().servers())
            .containsExactly("nats://a:4222", "tls://b:4223", "nats://c");
        for (String bad : List.of("localhost", "http://a:4222", "a:99999", "a:4222,", ":4222")) {
            assertThat(errors(with("address", bad))).as(bad).hasSize(1)
                .allMatch(m -> m.startsWith("address must be host:port or a comma-separated list"));
        }
    }

    @Test
    void addressWithCredentialsIsRejectedWithoutEchoingThem() {
        List<String> errors = errors(with("address", "nats://bob:hunter2@a:4222"));
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0)).doesNotContain("hunter2").contains("***@");
    }

    @Test
    void subjectMustHaveNoWhitespaceWildcardsOrEmptyTokens() {
        assertThat(errors(with("subject", "a b"))).containsExactly("subject must not contain whitespace: a b");
        assertThat(errors(with("subject", "a.*"))).containsExactly("subject must not contain wildcards (*, >): a.*");
        assertThat(errors(with("subject", "a.>"))).containsExactly("subject must not contain wildcards (*, >): a.>");
        assertThat(errors(with("subject", "a..b"))).containsExactly("subject must not have empty tokens: a..b");
        assertThat(errors(with("subject", ".a"))).containsExactly("subject must not have empty tokens: .a");
    }

    @Test
    void subjectMustHaveNoControlCharacters() {
        // found by SubjectTemplateFuzzTest: a NUL passed the whitespace check into published subjects
        assertThat(errors(with("subject", "events.a\u0000b"))).containsExactly(
            "subject must not contain control characters; character 9 is U+0000");
        assertThat(errors(with("subject", "events.a\u001Fb"))).containsExactly(
            "subject must not contain control characters; character 9 is U+001F");
        assertThat(errors(with("subject", "events.\u0085"))).hasSize(1);
    }

    @Test
    void streamNameMustBeValidForNats() {
        for (String bad : List.of("A B", "A.B", "A*", "A>", "A/B")) {
            assertThat(errors(with("jetstream_stream_name", bad))).as(bad).hasSize(1)
                .allMatch(m -> m.startsWith("jetstream_stream_name must not contain"));
        }
    }

    @Test
    void onlyOneAuthMethodIsAllowed() {
        Map<String, String> kv = with("token", "t0ken");
        kv.put("credentials_file", "/etc/nats.creds");
        assertThat(errors(kv)).containsExactly(
            "only one auth method may be set (username/password, token, credentials_file or nkey_seed_file)");
        Map<String, String> userAndToken = with("token", "t0ken");
        userAndToken.put("username", "u");
        userAndToken.put("password", "p");
        assertThat(errors(userAndToken)).hasSize(1);
    }

    @Test
    void usernameAndPasswordMustBeSetTogether() {
        assertThat(errors(with("username", "u"))).containsExactly("username and password must be set together");
        assertThat(check(with("password", "p")).errors()).singleElement()
            .satisfies(p -> assertThat(p.variable()).isEqualTo("username"));
    }

    @Test
    void clientCertAndKeyMustBeSetTogether() {
        assertThat(errors(with("tls_client_cert", "/c.pem"))).containsExactly(
            "tls_client_cert and tls_client_key must be set together");
    }

    @Test
    void pathsMustBeAbsolute() {
        for (String key : List.of("queue_dir", "credentials_file", "nkey_seed_file", "tls_ca", "tls_client_cert",
            "tls_client_key")) {
            assertThat(errors(with(key, "relative/dir"))).as(key)
                .contains(key + " must be an absolute path: relative/dir");
        }
    }

    @Test
    void publishWindowMustBeBetweenOneAnd4096() {
        for (String v : List.of("0", "4097", "x")) {
            assertThat(errors(with("publish_window", v))).containsExactly("publish_window must be between 1 and 4096");
        }
        assertThat(check(with("publish_window", "4096")).target().orElseThrow().publishWindow()).isEqualTo(4096);
    }

    @Test
    void zeroQueueLimitMeansTheDefaultWithAWarning() {
        TargetValidation result = check(with("queue_limit", "0"));
        assertThat(result.target().orElseThrow().queueLimit()).isEqualTo(100_000);
        assertThat(result.warnings()).extracting(ConfigProblem::message)
            .containsExactly("queue_limit 0 means the default; using 100000");
    }

    @Test
    void aMalformedOrNegativeQueueLimitIsAnErrorNeverTheDefault() {
        for (String v : List.of("225_000", "lots", "-5", "1e5", "225,000")) {
            TargetValidation result = check(with("queue_limit", v));
            assertThat(result.target()).as(v).isEmpty();
            assertThat(result.errors()).extracting(ConfigProblem::message).as(v).containsExactly(
                "queue_limit must be a whole number of entries, without separators (0 means the default 100000): " + v);
        }
        assertThat(check(with("queue_limit", "225000")).target().orElseThrow().queueLimit()).isEqualTo(225_000);
    }

    @Test
    void missingTlsAndCredentialsFilesAreFiledAsMissingFilesNotErrors() throws IOException {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "pem");
        Map<String, String> kv = with("tls_ca", ca.toString());
        kv.put("credentials_file", dir.resolve("missing.creds").toString());
        kv.put("tls_client_cert", dir.resolve("missing-cert.pem").toString());
        kv.put("tls_client_key", ca.toString());
        TargetValidation v = check(kv);
        assertThat(v.valid()).as("the daemon starts the target and retries its connection").isTrue();
        assertThat(v.warnings()).extracting(ConfigProblem::variable).containsExactly("credentials_file", "tls_client_cert");
        assertThat(v.warnings()).extracting(ConfigProblem::category).containsOnly(ConfigProblem.Category.MISSING_FILE);
        assertThat(v.warnings().get(0).message()).isEqualTo("credentials_file file does not exist: "
            + dir.resolve("missing.creds") + " (the target cannot connect until it is there)");
    }

    @Test
    void jetStreamDomainIsOneTokenAndReachesTheConfig() {
        assertThat(check(with("jetstream_domain", "hub")).target().orElseThrow().jetStreamDomain()).contains("hub");
        for (String bad : List.of("hub.east", "h b", "hub*", ">")) {
            assertThat(errors(with("jetstream_domain", bad))).as(bad)
                .containsExactly("jetstream_domain must be one token without whitespace, '.', '*' or '>': " + bad);
        }
    }

    @Test
    void jetStreamApiPrefixIsASubjectWithoutWildcards() {
        assertThat(check(with("jetstream_api_prefix", "$JS.hub.API")).target().orElseThrow().jetStreamApiPrefix())
            .contains("$JS.hub.API");
        assertThat(check(with("jetstream_api_prefix", "$JS.hub.API.")).valid()).as("jnats' own trailing dot").isTrue();
        assertThat(errors(with("jetstream_api_prefix", "$JS.*.API"))).singleElement().asString()
            .startsWith("jetstream_api_prefix must not contain wildcards");
        assertThat(errors(with("jetstream_api_prefix", "$JS..API"))).singleElement().asString()
            .startsWith("jetstream_api_prefix must not have empty tokens");
        assertThat(errors(with("jetstream_api_prefix", "."))).singleElement().asString()
            .startsWith("jetstream_api_prefix must name a subject prefix");
    }

    @Test
    void jetStreamDomainAndApiPrefixExcludeEachOther() {
        Map<String, String> kv = with("jetstream_domain", "hub");
        kv.put("jetstream_api_prefix", "$JS.hub.API");
        assertThat(errors(kv)).containsExactly("jetstream_domain and jetstream_api_prefix exclude each other: set one");
    }

    @Test
    void jetStreamDomainWithoutJetStreamIsAWarning() {
        Map<String, String> kv = with("jetstream_domain", "hub");
        kv.put("jetstream_enable", "off");
        TargetValidation v = check(kv);
        assertThat(v.valid()).isTrue();
        assertThat(v.warnings()).extracting(ConfigProblem::message)
            .containsExactly("jetstream_domain has no effect while jetstream_enable is off");
    }

    @Test
    void everyErrorIsReportedAtOnce() {
        Map<String, String> kv = without("jetstream_stream_name");
        kv.remove("queue_dir");
        kv.put("jetstream_ack_timeout_secs", "500");
        kv.put("publish_window", "0");
        assertThat(errors(kv)).containsExactlyInAnyOrder(
            "jetstream_stream_name is required when jetstream_enable is on",
            "queue_dir is required when jetstream_enable is on",
            "jetstream_ack_timeout_secs must be between 10 and 120 seconds",
            "publish_window must be between 1 and 4096");
    }

    @Test
    void unknownAdminKeyIsRejectedWithASuggestion() {
        TargetValidation v = check(with("jetstrem_enable", "on"));
        assertThat(v.target()).isEmpty();
        assertThat(v.errors()).extracting(ConfigProblem::message)
            .containsExactly("unknown configuration key jetstrem_enable (did you mean jetstream_enable?)");
    }

    @Test
    void environmentProblemsNameTheInstanceVariable() {
        TargetInput in = new TargetInput(TargetKind.AUDIT, "primary",
            Map.of(ConfigKey.ENABLE, new TargetInput.RawValue("RUSTFS_AUDIT_NATS_ENABLE_PRIMARY", "on"),
                ConfigKey.ADDRESS, new TargetInput.RawValue("RUSTFS_AUDIT_NATS_ADDRESS", "h:1"),
                ConfigKey.JETSTREAM_ENABLE, new TargetInput.RawValue("RUSTFS_AUDIT_NATS_JETSTREAM_ENABLE_PRIMARY", "on"),
                ConfigKey.QUEUE_DIR, new TargetInput.RawValue("RUSTFS_AUDIT_NATS_QUEUE_DIR", "/q")),
            "PRIMARY");
        assertThat(TargetValidator.validate(in).errors()).extracting(ConfigProblem::variable)
            .containsExactlyInAnyOrder("RUSTFS_AUDIT_NATS_SUBJECT_PRIMARY", "RUSTFS_AUDIT_NATS_JETSTREAM_STREAM_NAME_PRIMARY");
    }

    @Test
    void secretsPrintAsStarsInTheTargetsText() {
        Map<String, String> kv = with("username", "alice");
        kv.put("password", "s3cr3t-pw");
        TargetConfig t = check(kv).target().orElseThrow();
        assertThat(t.toString()).doesNotContain("s3cr3t-pw").contains("***");
        assertThat(t.password().orElseThrow().reveal()).isEqualTo("s3cr3t-pw");
        Map<String, String> tokenKv = with("token", "tok-very-secret");
        assertThat(check(tokenKv).target().orElseThrow().toString()).doesNotContain("tok-very-secret");
    }

    @Test
    void queuePathSanitisesTheIdForADirectoryName() {
        TargetConfig t = TargetValidator.validateKeyValues(TargetKind.AUDIT, "Team.A/b", valid()).target().orElseThrow();
        assertThat(t.id()).isEqualTo("team.a/b");
        assertThat(t.queuePath()).isEqualTo(Optional.of(Path.of("/var/lib/jetsink/audit-nats-team_a_b")));
    }
}

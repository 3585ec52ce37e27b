package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import dev.jetsink.InvalidConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigLoaderTest {

    @TempDir
    Path dir;

    private static Map<String, String> notifyTarget() {
        Map<String, String> env = new HashMap<>();
        env.put("RUSTFS_NOTIFY_NATS_ENABLE", "on");
        env.put("RUSTFS_NOTIFY_NATS_ADDRESS", "127.0.0.1:4222");
        env.put("RUSTFS_NOTIFY_NATS_SUBJECT", "rustfs.events");
        return env;
    }

    private static LoadedConfig load(Map<String, String> env) {
        return ConfigLoader.load(env, Optional.empty());
    }

    @Test
    void guideExampleWithEnableGivesAJetStreamTarget() {
        Map<String, String> env = notifyTarget();
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_ENABLE", "true");
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_STREAM_NAME", "RUSTFS_EVENTS");
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_ACK_TIMEOUT_SECS", "30");
        env.put("RUSTFS_NOTIFY_NATS_QUEUE_DIR", "/var/lib/rustfs/notify-nats");
        LoadedConfig loaded = load(env);
        assertThat(loaded.errors()).isEmpty();
        assertThat(loaded.config().targets(TargetKind.NOTIFY)).singleElement().satisfies(t -> {
            assertThat(t.displayId()).isEqualTo("notify _:nats");
            assertThat(t.jetstreamEnabled()).isTrue();
            assertThat(t.queuePath()).contains(Path.of("/var/lib/rustfs/notify-nats/notify-nats-_"));
        });
        assertThat(loaded.config().targets(TargetKind.AUDIT)).isEmpty();
    }

    @Test
    void notifyAndAuditTargetsResolveSideBySide() {
        Map<String, String> env = notifyTarget();
        env.put("RUSTFS_AUDIT_NATS_ENABLE_LOG", "on");
        env.put("RUSTFS_AUDIT_NATS_ADDRESS_LOG", "127.0.0.1:4222");
        env.put("RUSTFS_AUDIT_NATS_SUBJECT_LOG", "rustfs.audit");
        JetsinkConfig config = load(env).config();
        assertThat(config.targets()).extracting(TargetConfig::displayId)
            .containsExactly("notify _:nats", "audit log:nats");
        assertThat(config.activeTargets()).hasSize(2);
    }

    @Test
    void globalsAndDaemonSettingsHaveTheirDefaults() {
        JetsinkConfig config = load(Map.of()).config();
        assertThat(config.notifyEnabled()).isFalse();
        assertThat(config.auditEnabled()).isFalse();
        assertThat(config.notifyStreamConcurrency()).isEqualTo(20);
        assertThat(config.daemon()).isEqualTo(DaemonSettings.defaults());
        assertThat(config.warnings()).isEmpty();
    }

    @Test
    void kindSwitchDefaultsToOnWhenATargetOfThatKindIsEnabled() {
        JetsinkConfig config = load(notifyTarget()).config();
        assertThat(config.kindEnabled(TargetKind.NOTIFY)).isTrue();
        assertThat(config.kindEnabled(TargetKind.AUDIT)).isFalse();
        assertThat(config.activeTargets()).hasSize(1);
    }

    @Test
    void globalsAndDaemonSettingsAreRead() {
        Map<String, String> env = notifyTarget();
        env.put("RUSTFS_NOTIFY_ENABLE", "off");
        env.put("RUSTFS_NOTIFY_TARGET_STREAM_CONCURRENCY", "4");
        env.put("JETSINK_HTTP_ADDRESS", "0.0.0.0:9100");
        env.put("JETSINK_ADMIN_TOKEN", "admin-secret");
        env.put("JETSINK_INGEST_TOKEN", "ingest-secret");
        env.put("JETSINK_DATA_DIR", "/var/lib/jetsink");
        env.put("JETSINK_LOG_FORMAT", "json");
        LoadedConfig loaded = load(env);
        assertThat(loaded.errors()).isEmpty();
        JetsinkConfig c = loaded.config();
        assertThat(c.notifyEnabled()).isFalse();
        assertThat(c.activeTargets()).isEmpty();
        assertThat(c.targets()).hasSize(1);
        assertThat(c.notifyStreamConcurrency()).isEqualTo(4);
        assertThat(c.daemon().httpAddress()).isEqualTo("0.0.0.0:9100");
        assertThat(c.daemon().adminToken().orElseThrow().reveal()).isEqualTo("admin-secret");
        assertThat(c.daemon().ingestToken().orElseThrow().reveal()).isEqualTo("ingest-secret");
        assertThat(c.daemon().dataDir()).contains(Path.of("/var/lib/jetsink"));
        assertThat(c.daemon().logFormat()).isEqualTo(DaemonSettings.LogFormat.JSON);
        assertThat(c.toString()).doesNotContain("admin-secret").doesNotContain("ingest-secret");
    }

    @Test
    void invalidGlobalsAreErrorsNamingTheVariable() {
        Map<String, String> env = new HashMap<>();
        env.put("RUSTFS_AUDIT_ENABLE", "sure");
        env.put("RUSTFS_NOTIFY_TARGET_STREAM_CONCURRENCY", "0");
        env.put("JETSINK_LOG_FORMAT", "xml");
        env.put("JETSINK_BACKOFF_SCALE", "-1");
        env.put("JETSINK_HTTP_ADDRESS", "nowhere");
        env.put("JETSINK_DATA_DIR", "data");
        assertThat(load(env).errors()).extracting(ConfigProblem::describe).containsExactlyInAnyOrder(
            "global: Invalid RUSTFS_AUDIT_ENABLE boolean value: sure (accepted values include on, off, true, false, yes, no, 1, 0)",
            "global: RUSTFS_NOTIFY_TARGET_STREAM_CONCURRENCY must be a positive whole number",
            "daemon: JETSINK_LOG_FORMAT must be text or json: xml",
            "daemon: JETSINK_BACKOFF_SCALE must be a positive number: -1",
            "daemon: JETSINK_HTTP_ADDRESS must be host:port: nowhere",
            "daemon: JETSINK_DATA_DIR must be an absolute path: data");
    }

    @Test
    void httpLimitsDefaultAsTheKeyTableSays() {
        HttpSettings http = load(notifyTarget()).config().daemon().http();
        assertThat(http).isEqualTo(HttpSettings.defaults());
        assertThat(http.idleTimeout()).hasSeconds(30);
        assertThat(http.requestTimeout()).hasSeconds(30);
        assertThat(http.maxConnections()).isEqualTo(4096);
        assertThat(http.maxHeaderBytes()).isEqualTo(16_384);
        assertThat(http.tls()).isEmpty();
    }

    @Test
    void httpLimitsAndTlsAreRead() {
        Map<String, String> env = notifyTarget();
        env.put("JETSINK_HTTP_IDLE_TIMEOUT_SECS", "5");
        env.put("JETSINK_HTTP_REQUEST_TIMEOUT_SECS", "7");
        env.put("JETSINK_HTTP_MAX_CONNECTIONS", "100");
        env.put("JETSINK_HTTP_MAX_HEADER_BYTES", "8192");
        env.put("JETSINK_HTTP_TLS_CERT", "/etc/jetsink/cert.pem");
        env.put("JETSINK_HTTP_TLS_KEY", "/etc/jetsink/key.pem");
        env.put("JETSINK_HTTP_TLS_CLIENT_CA", "/etc/jetsink/clients.pem");
        LoadedConfig loaded = load(env);
        assertThat(loaded.errors()).isEmpty();
        HttpSettings http = loaded.config().daemon().http();
        assertThat(http.idleTimeout()).hasSeconds(5);
        assertThat(http.requestTimeout()).hasSeconds(7);
        assertThat(http.maxConnections()).isEqualTo(100);
        assertThat(http.maxHeaderBytes()).isEqualTo(8192);
        assertThat(http.tls()).contains(new HttpSettings.Tls(Path.of("/etc/jetsink/cert.pem"),
            Path.of("/etc/jetsink/key.pem"), java.util.Optional.of(Path.of("/etc/jetsink/clients.pem"))));
    }

    @Test
    void badHttpValuesAndHalfATlsPairAreErrorsNamingTheVariable() {
        Map<String, String> env = notifyTarget();
        env.put("JETSINK_HTTP_IDLE_TIMEOUT_SECS", "0");
        env.put("JETSINK_HTTP_REQUEST_TIMEOUT_SECS", "soon");
        env.put("JETSINK_HTTP_MAX_CONNECTIONS", "-4");
        env.put("JETSINK_HTTP_MAX_HEADER_BYTES", "100");
        env.put("JETSINK_HTTP_TLS_CERT", "/etc/jetsink/cert.pem");
        env.put("JETSINK_HTTP_TLS_CLIENT_CA", "clients.pem");
        assertThat(load(env).errors()).extracting(ConfigProblem::describe).containsExactlyInAnyOrder(
            "daemon: JETSINK_HTTP_IDLE_TIMEOUT_SECS must be a whole number of seconds from 1 to 86400",
            "daemon: JETSINK_HTTP_REQUEST_TIMEOUT_SECS must be a whole number of seconds from 1 to 86400",
            "daemon: JETSINK_HTTP_MAX_CONNECTIONS must be a whole number from 1 to 1000000",
            "daemon: JETSINK_HTTP_MAX_HEADER_BYTES must be a whole number of bytes from 1024 to 1048576",
            "daemon: JETSINK_HTTP_TLS_CLIENT_CA must be an absolute path: clients.pem",
            "daemon: JETSINK_HTTP_TLS_CERT and JETSINK_HTTP_TLS_KEY must be set together");
    }

    @Test
    void aMistypedHttpSettingIsAnUnknownKeyWithASuggestion() {
        assertThat(load(Map.of("JETSINK_HTTP_IDLE_TIMEOUT_SEC", "5")).errors()).singleElement()
            .extracting(ConfigProblem::message)
            .isEqualTo("unknown configuration key JETSINK_HTTP_IDLE_TIMEOUT_SEC (did you mean JETSINK_HTTP_IDLE_TIMEOUT_SECS?)");
    }

    @Test
    void backoffScaleOtherThanOneIsAWarning() {
        LoadedConfig loaded = load(Map.of("JETSINK_BACKOFF_SCALE", "0.01"));
        assertThat(loaded.errors()).isEmpty();
        assertThat(loaded.config().daemon().backoffScale()).isEqualTo(0.01);
        assertThat(loaded.config().warnings()).extracting(ConfigProblem::message)
            .containsExactly("JETSINK_BACKOFF_SCALE is 0.01: retry sleeps are scaled (for tests and drills only)");
        assertThat(load(Map.of("JETSINK_BACKOFF_SCALE", "1.0")).config().warnings()).isEmpty();
    }

    @Test
    void unknownJetsinkVariableIsAnErrorWithASuggestion() {
        assertThat(load(Map.of("JETSINK_ADMIN_TOKN", "x")).errors()).singleElement().satisfies(p -> {
            assertThat(p.category()).isEqualTo(ConfigProblem.Category.UNKNOWN_KEY);
            assertThat(p.message()).isEqualTo(
                "unknown configuration key JETSINK_ADMIN_TOKN (did you mean JETSINK_ADMIN_TOKEN?)");
        });
    }

    @Test
    void everyErrorOfEveryTargetIsReportedTogether() {
        Map<String, String> env = notifyTarget();
        env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_ACK_TIMEOUT_SECS", "5");
        env.put("RUSTFS_AUDIT_NATS_ENABLE_A", "on");
        env.put("RUSTFS_NOTIFY_NATS_JETSTREM_ENABLE", "on");
        LoadedConfig loaded = load(env);
        assertThat(loaded.errors()).extracting(ConfigProblem::describe).containsExactlyInAnyOrder(
            "notify: unknown configuration key RUSTFS_NOTIFY_NATS_JETSTREM_ENABLE (did you mean RUSTFS_NOTIFY_NATS_JETSTREAM_ENABLE?)",
            "notify _:nats: RUSTFS_NOTIFY_NATS_JETSTREAM_ACK_TIMEOUT_SECS: jetstream_ack_timeout_secs must be between 10 and 120 seconds",
            "audit a:nats: RUSTFS_AUDIT_NATS_ADDRESS_A: address is required",
            "audit a:nats: RUSTFS_AUDIT_NATS_SUBJECT_A: subject is required");
        assertThat(loaded.config().targets()).isEmpty();
    }

    @Test
    void requireThrowsWithEveryProblemAndUnknownKeysCanBeAllowed() throws InvalidConfigException {
        Map<String, String> env = notifyTarget();
        env.put("RUSTFS_NOTIFY_NATS_JETSTREM_ENABLE", "on");
        LoadedConfig loaded = load(env);
        assertThatThrownBy(() -> loaded.require(false)).isInstanceOf(InvalidConfigException.class)
            .satisfies(e -> assertThat(((InvalidConfigException) e).problems()).hasSize(1))
            .hasMessageContaining("RUSTFS_NOTIFY_NATS_JETSTREM_ENABLE");
        assertThat(loaded.require(true).targets()).hasSize(1);
    }

    @Test
    void configFileIsReadAndTheEnvironmentOverridesIt() throws IOException {
        Path file = Files.writeString(dir.resolve("jetsink.env"), String.join("\n",
            "# notify target",
            "RUSTFS_NOTIFY_NATS_ENABLE=on",
            "",
            "RUSTFS_NOTIFY_NATS_ADDRESS = 10.0.0.1:4222",
            "RUSTFS_NOTIFY_NATS_SUBJECT=from.file",
            "RUSTFS_NOTIFY_NATS_COMMENT_IS_NOT=a=b"));
        LoadedConfig loaded = ConfigLoader.load(Map.of("RUSTFS_NOTIFY_NATS_SUBJECT", "from.env"), Optional.of(file));
        assertThat(loaded.config().targets()).singleElement().satisfies(t -> {
            assertThat(t.servers()).containsExactly("nats://10.0.0.1:4222");
            assertThat(t.subject()).isEqualTo("from.env");
        });
        assertThat(loaded.errors()).extracting(ConfigProblem::category).containsExactly(ConfigProblem.Category.UNKNOWN_KEY);
    }

    @Test
    void malformedFileLineIsAnErrorNamingFileAndLine() throws IOException {
        Path file = Files.writeString(dir.resolve("bad.env"), "JETSINK_LOG_FORMAT=json\npassword hunter2\n");
        LoadedConfig loaded = ConfigLoader.load(Map.of(), Optional.of(file));
        assertThat(loaded.errors()).singleElement().satisfies(p -> {
            assertThat(p.category()).isEqualTo(ConfigProblem.Category.FILE);
            assertThat(p.variable()).isEqualTo(file + ":2");
            assertThat(p.message()).isEqualTo("line 2 has no '=' (expected NAME=value): systemd ignores it (in " + file + ")");
            assertThat(p.describe()).doesNotContain("hunter2");
        });
    }

    @Test
    void theDebianScriptsPurgeSwitchIsNotAnUnknownKey() {
        Map<String, String> env = notifyTarget();
        env.put("JETSINK_PURGE_STATE", "yes");
        assertThat(load(env).errors()).isEmpty();
    }

    @Test
    void aMistypedToolVariableIsStillAnUnknownKey() {
        Map<String, String> env = notifyTarget();
        env.put("JETSINK_PURGE_STATES", "yes");
        assertThat(load(env).errors()).singleElement().satisfies(p -> {
            assertThat(p.category()).isEqualTo(ConfigProblem.Category.UNKNOWN_KEY);
            assertThat(p.variable()).isEqualTo("JETSINK_PURGE_STATES");
        });
    }

    @Test
    void missingConfigFileIsAnError() {
        LoadedConfig loaded = ConfigLoader.load(Map.of(), Optional.of(dir.resolve("nope.env")));
        assertThat(loaded.errors()).extracting(ConfigProblem::category).containsExactly(ConfigProblem.Category.FILE);
    }

    @Test
    void secretsNeverAppearInProblemsOrConfigText() {
        Map<String, String> env = notifyTarget();
        env.put("RUSTFS_NOTIFY_NATS_TOKEN", "tok-SECRET");
        env.put("RUSTFS_NOTIFY_NATS_USERNAME", "u");
        env.put("RUSTFS_NOTIFY_NATS_PASSWORD", "pw-SECRET");
        env.put("JETSINK_ADMIN_TOKEN", "adm-SECRET");
        LoadedConfig loaded = load(env);
        assertThat(loaded.errors()).isNotEmpty();
        assertThat(loaded.errors().toString() + loaded.config()).doesNotContain("SECRET");
    }

    @Test
    void aQuoteLeftOpenDoesNotCarryAPasswordIntoAnotherValuesMessage() throws IOException {
        // found by ConfigLoaderFuzzTest: the open quote reads the password line into ENABLE's
        // value, and the message about that value quoted it
        Path file = Files.writeString(dir.resolve("open-quote.env"), String.join("\n",
            "RUSTFS_NOTIFY_NATS_ENABLE='on",
            "RUSTFS_NOTIFY_NATS_PASSWORD=hunter2hunter2",
            ""));

        LoadedConfig loaded = ConfigLoader.load(Map.of(), Optional.of(file));

        assertThat(loaded.errors()).isNotEmpty()
            .allSatisfy(p -> assertThat(p.describe()).doesNotContain("hunter2"))
            .anySatisfy(p -> assertThat(p.message()).contains("RUSTFS_NOTIFY_NATS_PASSWORD=***"));
    }

    @Test
    void aSecretValueIsMaskedWhereverAnotherValueQuotesIt() {
        Map<String, String> env = new HashMap<>(notifyTarget());
        env.put("RUSTFS_NOTIFY_NATS_TOKEN", "tok-s3cret");
        env.put("RUSTFS_NOTIFY_NATS_QUEUE_DIR", "relative/tok-s3cret");

        LoadedConfig loaded = load(env);

        assertThat(loaded.errors()).extracting(ConfigProblem::message)
            .anySatisfy(m -> assertThat(m).contains("relative/***"))
            .allSatisfy(m -> assertThat(m).doesNotContain("tok-s3cret"));
    }

    @Test
    void aMistypedPrefixIsAWarningWithTheVariableItMeant() {
        Map<String, String> env = notifyTarget();
        env.put("RUSTFS_AUIDT_NATS_ENABLE", "on");
        env.put("RUSTFS_NOTIFY_NAT_QUEUE_LIMIT", "5");
        env.put("RUSTFS_AUDIT_ENABLED", "on");
        env.put("RUSTFS_NOTIFY_WEBHOOK_ENABLE", "on");
        LoadedConfig loaded = load(env);
        assertThat(loaded.errors()).isEmpty();
        assertThat(loaded.config().warnings()).extracting(ConfigProblem::message).containsExactly(
            "RUSTFS_AUDIT_ENABLED is not a variable jetsink reads, so it has no effect (did you mean RUSTFS_AUDIT_ENABLE?)",
            "RUSTFS_AUIDT_NATS_ENABLE is not a variable jetsink reads, so it has no effect"
                + " (did you mean RUSTFS_AUDIT_NATS_ENABLE?)",
            "RUSTFS_NOTIFY_NAT_QUEUE_LIMIT is not a variable jetsink reads, so it has no effect"
                + " (did you mean RUSTFS_NOTIFY_NATS_QUEUE_LIMIT?)");
    }

    @Test
    void twoJetStreamTargetsOnOneStreamAndSubjectAreAWarningNamingBoth() {
        Map<String, String> env = new HashMap<>();
        for (String id : new String[] {"A", "B", "C"}) {
            env.put("RUSTFS_NOTIFY_NATS_ENABLE_" + id, "on");
            env.put("RUSTFS_NOTIFY_NATS_ADDRESS_" + id, "127.0.0.1:4222");
            env.put("RUSTFS_NOTIFY_NATS_SUBJECT_" + id, "rustfs.events.{bucket}");
            env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_ENABLE_" + id, "on");
            env.put("RUSTFS_NOTIFY_NATS_JETSTREAM_STREAM_NAME_" + id, "EVENTS");
            env.put("RUSTFS_NOTIFY_NATS_QUEUE_DIR_" + id, "/var/lib/jetsink");
        }
        env.put("RUSTFS_NOTIFY_NATS_SUBJECT_C", "rustfs.other.{bucket}");
        LoadedConfig loaded = load(env);
        assertThat(loaded.errors()).isEmpty();
        assertThat(loaded.config().warnings()).singleElement().satisfies(w -> {
            assertThat(w.target()).isEqualTo("notify b:nats");
            assertThat(w.variable()).isEqualTo("RUSTFS_NOTIFY_NATS_ENABLE_B");
            assertThat(w.message()).isEqualTo("publishes to stream EVENTS subject rustfs.events.{bucket} like notify a:nats:"
                + " every event is stored twice (each target gives its own message ids)");
        });
    }

    @Test
    void failedRetentionKeysReachTheTarget() {
        Map<String, String> env = notifyTarget();
        env.put("RUSTFS_NOTIFY_NATS_FAILED_MAX_RECORDS", "250000");
        env.put("RUSTFS_NOTIFY_NATS_FAILED_MAX_AGE_HOURS", "168");
        LoadedConfig loaded = load(env);
        assertThat(loaded.errors()).isEmpty();
        TargetConfig t = loaded.config().targets().get(0);
        assertThat(t.failedMaxRecords()).isEqualTo(250_000);
        assertThat(t.failedMaxAge()).isEqualTo(java.time.Duration.ofHours(168));
    }

    @Test
    void failedRetentionDefaultsToTenThousandRecordsAnd72Hours() {
        TargetConfig t = load(notifyTarget()).config().targets().get(0);
        assertThat(t.failedMaxRecords()).isEqualTo(10_000);
        assertThat(t.failedMaxAge()).isEqualTo(java.time.Duration.ofHours(72));
    }

    @Test
    void failedRetentionOutOfBoundsOrMalformedIsAnError() {
        Map<String, String> env = notifyTarget();
        env.put("RUSTFS_NOTIFY_NATS_FAILED_MAX_RECORDS", "10_000");
        env.put("RUSTFS_NOTIFY_NATS_FAILED_MAX_AGE_HOURS", "2161");
        assertThat(load(env).errors()).extracting(p -> p.variable() + ": " + p.message()).containsExactlyInAnyOrder(
            "RUSTFS_NOTIFY_NATS_FAILED_MAX_RECORDS: failed_max_records must be a whole number of records from 100 to 1000000",
            "RUSTFS_NOTIFY_NATS_FAILED_MAX_AGE_HOURS: failed_max_age_hours must be a whole number of hours from 1 to 2160 (90 days)");
    }
}

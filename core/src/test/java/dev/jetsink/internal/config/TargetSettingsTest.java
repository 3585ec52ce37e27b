package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import dev.jetsink.MsgIdMode;
import dev.jetsink.OrderMode;
import dev.jetsink.internal.config.TargetSettings.Origin;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** One validator for typed settings, whichever reader made them; problems in the reader's terms. */
class TargetSettingsTest {

    private static TargetSettings.Builder daemon() {
        return TargetSettings.builder(TargetKind.NOTIFY, "_", key -> Origin.variable(key.variable(TargetKind.NOTIFY, ""), key));
    }

    private static TargetSettings.Builder library() {
        return TargetSettings.builder(TargetKind.NOTIFY, "_", Origin.methods(TargetKind.NOTIFY))
            .servers(List.of("nats://a:4222"), Origin.method(ConfigKey.ADDRESS))
            .subject("s", Origin.method(ConfigKey.SUBJECT));
    }

    @Test
    void unsetKeysHoldTheKeyTablesDefaults() {
        TargetSettings s = daemon().build();
        assertThat(s.queueLimit()).isEqualTo(TargetSettings.DEFAULT_QUEUE_LIMIT);
        assertThat(s.ackTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.publishWindow()).isEqualTo(1024);
        assertThat(s.msgIds()).isEqualTo(MsgIdMode.CONTENT);
        assertThat(s.order()).isEqualTo(OrderMode.NONE);
        assertThat(s.jetStream()).isFalse();
        assertThat(s.servers()).isEmpty();
        assertThat(s.origin(ConfigKey.QUEUE_DIR).variable()).isEqualTo("RUSTFS_NOTIFY_NATS_QUEUE_DIR");
    }

    @Test
    void theSameRuleNamesTheVariableForTheDaemonAndTheMethodForTheBuilder() {
        TargetSettings fromKeys = daemon().servers(List.of("a:1"), Origin.variable("RUSTFS_NOTIFY_NATS_ADDRESS", ConfigKey.ADDRESS))
            .subject("s", Origin.variable("RUSTFS_NOTIFY_NATS_SUBJECT", ConfigKey.SUBJECT))
            .jetStream(true, Origin.variable("RUSTFS_NOTIFY_NATS_JETSTREAM_ENABLE", ConfigKey.JETSTREAM_ENABLE))
            .build();
        assertThat(TargetValidator.validate(fromKeys).errors()).extracting(ConfigProblem::variable, ConfigProblem::message)
            .containsExactly(
                org.assertj.core.groups.Tuple.tuple("RUSTFS_NOTIFY_NATS_JETSTREAM_STREAM_NAME",
                    "jetstream_stream_name is required when jetstream_enable is on"),
                org.assertj.core.groups.Tuple.tuple("RUSTFS_NOTIFY_NATS_QUEUE_DIR",
                    "queue_dir is required when jetstream_enable is on"));
        TargetSettings fromBuilder = library().jetStream(true, Origin.method(ConfigKey.JETSTREAM_ENABLE))
            .streamName("S", Origin.method(ConfigKey.JETSTREAM_STREAM_NAME)).build();
        assertThat(TargetValidator.validate(fromBuilder).errors()).extracting(ConfigProblem::variable, ConfigProblem::message)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("queueDir(...)",
                "queueDir(...) is required when jetStream(...) is on"));
    }

    @Test
    void valuesTheDaemonsReaderCannotProduceAreStillCheckedForTheBuilder() {
        TargetSettings s = library().queueLimit(0, Origin.method(ConfigKey.QUEUE_LIMIT))
            .queueDir(Path.of(""), Origin.method(ConfigKey.QUEUE_DIR))
            .ackTimeout(Duration.ofMillis(10_500), Origin.method(ConfigKey.JETSTREAM_ACK_TIMEOUT_SECS)).build();
        assertThat(TargetValidator.validate(s).errors()).extracting(ConfigProblem::message).containsExactlyInAnyOrder(
            "queueLimit(...) must be at least 1: 0",
            "queueDir(...) must not be the empty path (it would mean the working directory)",
            "ackTimeout(...) must be whole seconds: PT10.5S");
    }

    @Test
    void aValidSettingBuildsTheTargetConfig() {
        TargetSettings s = library().servers(List.of("a:4222", "tls://b"), Origin.method(ConfigKey.ADDRESS))
            .queueDir(Path.of("/q"), Origin.method(ConfigKey.QUEUE_DIR)).queueLimit(7, Origin.method(ConfigKey.QUEUE_LIMIT))
            .build();
        TargetConfig config = TargetValidator.validate(s).target().orElseThrow();
        assertThat(config.servers()).containsExactly("nats://a:4222", "tls://b");
        assertThat(config.queueLimit()).isEqualTo(7);
        assertThat(config.queuePath()).contains(Path.of("/q/notify-nats-_"));
    }

    @Test
    void anOverlayWinsAndNamesTheKeysNeitherSideSet() {
        TargetInput input = new TargetInput(TargetKind.NOTIFY, "_", Map.of(
            ConfigKey.PUBLISH_WINDOW, new TargetInput.RawValue("RUSTFS_NOTIFY_NATS_PUBLISH_WINDOW", "9000"),
            ConfigKey.SUBJECT, new TargetInput.RawValue("RUSTFS_NOTIFY_NATS_SUBJECT", "s")), "");
        TargetInput.Read read = input.read();
        read.settings().overlay(TargetSettings.builder(TargetKind.NOTIFY, "_", Origin.methods(TargetKind.NOTIFY))
            .queueLimit(-1, Origin.method(ConfigKey.QUEUE_LIMIT)));
        assertThat(TargetValidator.validate(read).errors()).extracting(ConfigProblem::variable).containsExactlyInAnyOrder(
            "RUSTFS_NOTIFY_NATS_PUBLISH_WINDOW", "queueLimit(...)", "servers(...)");
    }

    @Test
    void theDaemonsReaderKeepsItsFallbackForQueueLimitAndReportsUnreadableValues() {
        TargetInput input = new TargetInput(TargetKind.NOTIFY, "_", Map.of(
            ConfigKey.QUEUE_LIMIT, new TargetInput.RawValue("RUSTFS_NOTIFY_NATS_QUEUE_LIMIT", "0"),
            ConfigKey.TLS_REQUIRED, new TargetInput.RawValue("RUSTFS_NOTIFY_NATS_TLS_REQUIRED", "tru")), "");
        TargetInput.Read read = input.read();
        assertThat(read.settings().build().queueLimit()).isEqualTo(TargetSettings.DEFAULT_QUEUE_LIMIT);
        assertThat(read.warnings()).extracting(ConfigProblem::message)
            .containsExactly("queue_limit 0 means the default; using 100000");
        assertThat(read.errors()).extracting(ConfigProblem::variable).containsExactly("RUSTFS_NOTIFY_NATS_TLS_REQUIRED");
    }

    @Test
    void theDaemonsReaderTakesOrderKeyInAnyCaseAndCarriesItToTheTargetConfig() {
        for (String written : List.of("key", " KEY ")) {
            TargetInput input = new TargetInput(TargetKind.NOTIFY, "_", Map.of(
                ConfigKey.ADDRESS, new TargetInput.RawValue("RUSTFS_NOTIFY_NATS_ADDRESS", "a:4222"),
                ConfigKey.SUBJECT, new TargetInput.RawValue("RUSTFS_NOTIFY_NATS_SUBJECT", "s"),
                ConfigKey.ORDER, new TargetInput.RawValue("RUSTFS_NOTIFY_NATS_ORDER", written)), "");
            TargetInput.Read read = input.read();
            assertThat(read.errors()).as(written).isEmpty();
            assertThat(read.settings().build().order()).as(written).isEqualTo(OrderMode.KEY);
            assertThat(TargetValidator.validate(read).target().orElseThrow().order()).as(written).isEqualTo(OrderMode.KEY);
        }
    }

    @Test
    void anUnsetOrderIsNoneInTheTargetConfig() {
        TargetConfig config = TargetValidator.validate(library().build()).target().orElseThrow();
        assertThat(config.order()).isEqualTo(OrderMode.NONE);
    }

    @Test
    void anOrderTheDaemonsReaderCannotReadIsAnErrorNamingTheVariableAndTheKey() {
        TargetInput input = new TargetInput(TargetKind.NOTIFY, "_", Map.of(
            ConfigKey.ORDER, new TargetInput.RawValue("RUSTFS_NOTIFY_NATS_ORDER_PRIMARY", "keys")), "PRIMARY");
        TargetInput.Read read = input.read();
        assertThat(read.errors()).extracting(ConfigProblem::variable, ConfigProblem::message).containsExactly(
            org.assertj.core.groups.Tuple.tuple("RUSTFS_NOTIFY_NATS_ORDER_PRIMARY", "order must be none or key: keys"));
        assertThat(read.settings().has(ConfigKey.ORDER)).isFalse();
    }

    @Test
    void theBuildersOrderReachesTheTargetConfigAndIsNamedByItsMethod() {
        TargetSettings s = library().order(OrderMode.KEY, Origin.method(ConfigKey.ORDER)).build();
        assertThat(s.origin(ConfigKey.ORDER).variable()).isEqualTo("order(...)");
        assertThat(TargetValidator.validate(s).target().orElseThrow().order()).isEqualTo(OrderMode.KEY);
    }

    @Test
    void everyKeyTheBuilderSetsHasItsMethodInTheTable() {
        assertThat(ConfigKey.QUEUE_LIMIT.builderMethod()).contains("queueLimit");
        assertThat(ConfigKey.ADDRESS.builderMethod()).contains("servers");
        assertThat(ConfigKey.ENABLE.builderMethod()).isEmpty();
        assertThat(ConfigKey.COMMENT.builderMethod()).isEmpty();
    }
}

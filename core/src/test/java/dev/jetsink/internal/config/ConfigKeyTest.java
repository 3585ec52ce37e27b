package dev.jetsink.internal.config;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ConfigKeyTest {

    @Test
    void tableHoldsTheSpecKeysMsgIdAndFormatInLowerSnakeCase() {
        assertThat(Arrays.stream(ConfigKey.values()).map(ConfigKey::keyName)).containsExactly(
            "enable", "address", "subject", "username", "password", "token", "credentials_file", "nkey_seed_file",
            "tls_ca", "tls_client_cert", "tls_client_key", "tls_required", "queue_dir", "queue_limit", "jetstream_enable",
            "jetstream_stream_name", "jetstream_ack_timeout_secs", "jetstream_domain", "jetstream_api_prefix", "comment", "publish_window", "msg_id",
            "format", "order", "failed_max_records", "failed_max_age_hours");
    }

    @Test
    void defaultsFollowTheSpecTable() {
        assertThat(ConfigKey.ENABLE.defaultValue()).contains("off");
        assertThat(ConfigKey.TLS_REQUIRED.defaultValue()).contains("off");
        assertThat(ConfigKey.JETSTREAM_ENABLE.defaultValue()).contains("off");
        assertThat(ConfigKey.QUEUE_LIMIT.defaultValue()).contains("100000");
        assertThat(ConfigKey.JETSTREAM_ACK_TIMEOUT_SECS.defaultValue()).contains("30");
        assertThat(ConfigKey.PUBLISH_WINDOW.defaultValue()).contains("1024");
        assertThat(ConfigKey.MSG_ID.defaultValue()).contains("content");
        assertThat(ConfigKey.FORMAT.defaultValue()).contains("envelope");
        assertThat(ConfigKey.ORDER.defaultValue()).contains("none");
        assertThat(ConfigKey.ADDRESS.defaultValue()).isEmpty();
        assertThat(ConfigKey.JETSTREAM_STREAM_NAME.defaultValue()).isEmpty();
    }

    @Test
    void msgIdTakesContentOrRandomAndNamesTheKeyOtherwise() {
        assertThat(ConfigKey.MSG_ID.rule().check("msg_id", "content")).isEmpty();
        assertThat(ConfigKey.MSG_ID.rule().check("msg_id", "RANDOM")).isEmpty();
        assertThat(ConfigKey.MSG_ID.rule().check("msg_id", "uuid")).contains("msg_id must be content or random: uuid");
    }

    @Test
    void orderTakesNoneOrKeyInAnyCaseAndNamesTheKeyOtherwise() {
        assertThat(ConfigKey.ORDER.rule().check("order", "none")).isEmpty();
        assertThat(ConfigKey.ORDER.rule().check("order", "key")).isEmpty();
        assertThat(ConfigKey.ORDER.rule().check("order", " KEY ")).isEmpty();
        assertThat(ConfigKey.ORDER.rule().check("order", "keys")).contains("order must be none or key: keys");
        assertThat(ConfigKey.ORDER.builderMethod()).contains("order");
    }

    @Test
    void onlyCommentLacksAnEnvironmentForm() {
        assertThat(Arrays.stream(ConfigKey.values()).filter(k -> !k.hasEnvForm())).containsExactly(ConfigKey.COMMENT);
    }

    @Test
    void passwordAndTokenAreTheSecretKeys() {
        assertThat(Arrays.stream(ConfigKey.values()).filter(ConfigKey::isSecret))
            .containsExactly(ConfigKey.PASSWORD, ConfigKey.TOKEN);
    }

    @Test
    void variableNamesCarryKindPrefixAndInstanceSuffix() {
        assertThat(ConfigKey.QUEUE_LIMIT.variable(TargetKind.NOTIFY, "")).isEqualTo("RUSTFS_NOTIFY_NATS_QUEUE_LIMIT");
        assertThat(ConfigKey.QUEUE_LIMIT.variable(TargetKind.AUDIT, "PRIMARY")).isEqualTo("RUSTFS_AUDIT_NATS_QUEUE_LIMIT_PRIMARY");
    }
}

package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TargetVariablesTest {

    private static TargetVariables.Split notify(Map<String, String> env) {
        return TargetVariables.split(TargetKind.NOTIFY, env);
    }

    @Test
    void unsuffixedEnableOnCreatesTheDefaultInstance() {
        var split = notify(Map.of("RUSTFS_NOTIFY_NATS_ENABLE", "on", "RUSTFS_NOTIFY_NATS_SUBJECT", "s"));
        assertThat(split.instances()).singleElement().satisfies(i -> {
            assertThat(i.id()).isEqualTo("_");
            assertThat(i.value(ConfigKey.SUBJECT)).contains("s");
        });
        assertThat(split.problems()).isEmpty();
    }

    @Test
    void suffixedEnableCreatesALowerCasedInstance() {
        var split = notify(Map.of("RUSTFS_NOTIFY_NATS_ENABLE_PRIMARY", "on"));
        assertThat(split.instances()).extracting(TargetInput::id).containsExactly("primary");
    }

    @Test
    void instanceWithEnableOffDoesNotExist() {
        var split = notify(Map.of("RUSTFS_NOTIFY_NATS_ENABLE_PRIMARY", "off", "RUSTFS_NOTIFY_NATS_SUBJECT_PRIMARY", "s"));
        assertThat(split.instances()).isEmpty();
        assertThat(split.problems()).isEmpty();
    }

    @Test
    void suffixedInstanceInheritsUnsuffixedKeysItDoesNotSet() {
        var split = notify(Map.of(
            "RUSTFS_NOTIFY_NATS_ENABLE_PRIMARY", "on",
            "RUSTFS_NOTIFY_NATS_ADDRESS", "127.0.0.1:4222",
            "RUSTFS_NOTIFY_NATS_SUBJECT", "shared",
            "RUSTFS_NOTIFY_NATS_SUBJECT_PRIMARY", "own"));
        TargetInput primary = split.instances().get(0);
        assertThat(primary.value(ConfigKey.ADDRESS)).contains("127.0.0.1:4222");
        assertThat(primary.value(ConfigKey.SUBJECT)).contains("own");
        assertThat(primary.variableOf(ConfigKey.ADDRESS)).isEqualTo("RUSTFS_NOTIFY_NATS_ADDRESS");
        assertThat(primary.variableOf(ConfigKey.SUBJECT)).isEqualTo("RUSTFS_NOTIFY_NATS_SUBJECT_PRIMARY");
    }

    @Test
    void suffixedInstanceDoesNotInheritTheDefaultInstancesEnable() {
        var split = notify(Map.of("RUSTFS_NOTIFY_NATS_ENABLE", "on", "RUSTFS_NOTIFY_NATS_ENABLE_B", "on"));
        assertThat(split.instances()).extracting(TargetInput::id).containsExactly("_", "b");
        assertThat(split.instances().get(1).variableOf(ConfigKey.ENABLE)).isEqualTo("RUSTFS_NOTIFY_NATS_ENABLE_B");
    }

    @Test
    void longestKnownKeyMatchesFirst() {
        var split = notify(Map.of("RUSTFS_NOTIFY_NATS_ENABLE_PRIMARY", "on", "RUSTFS_NOTIFY_NATS_QUEUE_LIMIT_PRIMARY", "5",
            "RUSTFS_NOTIFY_NATS_JETSTREAM_ENABLE_PRIMARY", "on"));
        TargetInput primary = split.instances().get(0);
        assertThat(primary.value(ConfigKey.QUEUE_LIMIT)).contains("5");
        assertThat(primary.value(ConfigKey.JETSTREAM_ENABLE)).contains("on");
        assertThat(primary.value(ConfigKey.ENABLE)).contains("on");
        assertThat(TargetVariables.matchKey("TLS_CLIENT_KEY_X")).contains(ConfigKey.TLS_CLIENT_KEY);
        assertThat(TargetVariables.matchKey("JETSTREAM_ACK_TIMEOUT_SECS")).contains(ConfigKey.JETSTREAM_ACK_TIMEOUT_SECS);
    }

    @Test
    void auditVariablesAreSplitByTheSameRules() {
        var split = TargetVariables.split(TargetKind.AUDIT, Map.of(
            "RUSTFS_AUDIT_NATS_ENABLE_LOG", "yes", "RUSTFS_AUDIT_NATS_SUBJECT", "audit",
            "RUSTFS_NOTIFY_NATS_ENABLE", "on"));
        assertThat(split.instances()).singleElement().satisfies(i -> {
            assertThat(i.kind()).isEqualTo(TargetKind.AUDIT);
            assertThat(i.id()).isEqualTo("log");
            assertThat(i.value(ConfigKey.SUBJECT)).contains("audit");
        });
    }

    @Test
    void guideExampleWithoutAnyEnableIsAnErrorNamingEachVariable() {
        var split = notify(Map.of(
            "RUSTFS_NOTIFY_NATS_JETSTREAM_ENABLE", "true",
            "RUSTFS_NOTIFY_NATS_JETSTREAM_STREAM_NAME", "RUSTFS_EVENTS",
            "RUSTFS_NOTIFY_NATS_QUEUE_DIR", "/var/lib/rustfs/notify-nats"));
        assertThat(split.instances()).isEmpty();
        assertThat(split.problems()).extracting(ConfigProblem::message).contains(
            "RUSTFS_NOTIFY_NATS_JETSTREAM_ENABLE is set but no notify NATS target is enabled"
                + " (set RUSTFS_NOTIFY_NATS_ENABLE=on, or RUSTFS_NOTIFY_NATS_ENABLE_<ID>=on)");
        assertThat(split.problems()).hasSize(3)
            .allMatch(p -> p.category() == ConfigProblem.Category.UNUSED_KEY);
    }

    @Test
    void suffixedKeyOfAnInstanceWithoutEnableConfiguresNothing() {
        var split = notify(Map.of("RUSTFS_NOTIFY_NATS_ENABLE", "on", "RUSTFS_NOTIFY_NATS_QUEUE_DIR_OTHER", "/q"));
        assertThat(split.problems()).singleElement().satisfies(p -> {
            assertThat(p.category()).isEqualTo(ConfigProblem.Category.UNUSED_KEY);
            assertThat(p.message()).isEqualTo("RUSTFS_NOTIFY_NATS_QUEUE_DIR_OTHER is set but notify NATS target other"
                + " is not enabled (set RUSTFS_NOTIFY_NATS_ENABLE_OTHER=on)");
        });
    }

    @Test
    void mistypedKeyIsUnknownWithASuggestion() {
        var split = notify(Map.of("RUSTFS_NOTIFY_NATS_ENABLE", "on", "RUSTFS_NOTIFY_NATS_JETSTREM_ENABLE", "on"));
        assertThat(split.problems()).singleElement().satisfies(p -> {
            assertThat(p.category()).isEqualTo(ConfigProblem.Category.UNKNOWN_KEY);
            assertThat(p.message()).isEqualTo("unknown configuration key RUSTFS_NOTIFY_NATS_JETSTREM_ENABLE"
                + " (did you mean RUSTFS_NOTIFY_NATS_JETSTREAM_ENABLE?)");
        });
    }

    @Test
    void mistypedSuffixedKeyKeepsItsSuffixInTheSuggestion() {
        var split = notify(Map.of("RUSTFS_NOTIFY_NATS_ENABLE_PRIMARY", "on", "RUSTFS_NOTIFY_NATS_JETSTREM_ENABLE_PRIMARY", "on"));
        assertThat(split.problems()).extracting(ConfigProblem::message).containsExactly(
            "unknown configuration key RUSTFS_NOTIFY_NATS_JETSTREM_ENABLE_PRIMARY"
                + " (did you mean RUSTFS_NOTIFY_NATS_JETSTREAM_ENABLE_PRIMARY?)");
    }

    @Test
    void commentHasNoEnvironmentForm() {
        var split = notify(Map.of("RUSTFS_NOTIFY_NATS_ENABLE", "on", "RUSTFS_NOTIFY_NATS_COMMENT", "hello"));
        assertThat(split.problems()).extracting(ConfigProblem::category).containsExactly(ConfigProblem.Category.UNKNOWN_KEY);
    }

    @Test
    void invalidEnableIsABooleanError() {
        var split = notify(Map.of("RUSTFS_NOTIFY_NATS_ENABLE_X", "maybe"));
        assertThat(split.instances()).isEmpty();
        assertThat(split.problems()).singleElement().satisfies(p -> {
            assertThat(p.variable()).isEqualTo("RUSTFS_NOTIFY_NATS_ENABLE_X");
            assertThat(p.target()).isEqualTo("notify x:nats");
            assertThat(p.message()).isEqualTo(
                "Invalid enable boolean value: maybe (accepted values include on, off, true, false, yes, no, 1, 0)");
        });
    }

    @Test
    void blankValueReadsAsUnset() {
        var split = notify(Map.of("RUSTFS_NOTIFY_NATS_ENABLE", "on", "RUSTFS_NOTIFY_NATS_SUBJECT", "  "));
        assertThat(split.instances().get(0).value(ConfigKey.SUBJECT)).isEqualTo(Optional.empty());
    }

    @Test
    void otherPrefixesAreIgnored() {
        var split = notify(Map.of("RUSTFS_NOTIFY_WEBHOOK_ENABLE", "on", "PATH", "/bin"));
        assertThat(split.instances()).isEmpty();
        assertThat(split.problems()).isEmpty();
    }

    @Test
    void everyKeyWithAnEnvironmentFormIsReadWithAndWithoutSuffix() {
        for (ConfigKey key : ConfigKey.values()) {
            if (!key.hasEnvForm() || key == ConfigKey.ENABLE) {
                continue;
            }
            var split = TargetVariables.split(TargetKind.AUDIT, Map.of(
                "RUSTFS_AUDIT_NATS_ENABLE", "on", "RUSTFS_AUDIT_NATS_ENABLE_X", "on",
                key.variable(TargetKind.AUDIT, ""), "plain", key.variable(TargetKind.AUDIT, "X"), "suffixed"));
            assertThat(split.problems()).as(key.keyName()).isEmpty();
            assertThat(split.instances().get(0).value(key)).as(key.keyName()).contains("plain");
            assertThat(split.instances().get(1).value(key)).as(key.keyName()).contains("suffixed");
        }
    }

    @Test
    void emptyOrUnderscoreSuffixIsNotAnInstance() {
        var split = notify(Map.of("RUSTFS_NOTIFY_NATS_ENABLE_", "on", "RUSTFS_NOTIFY_NATS_ENABLE__", "on"));
        assertThat(split.instances()).isEmpty();
        assertThat(split.problems()).extracting(ConfigProblem::category)
            .containsOnly(ConfigProblem.Category.UNKNOWN_KEY).hasSize(2);
    }
}

package dev.jetsink.internal.config;

import java.util.List;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class KeySuggestionTest {

    @Test
    void nearbyTypoIsSuggested() {
        assertThat(KeySuggestion.forTargetVariable(TargetKind.AUDIT, "RUSTFS_AUDIT_NATS_QUEUE_DIRR"))
            .contains("RUSTFS_AUDIT_NATS_QUEUE_DIR");
        assertThat(KeySuggestion.forTargetVariable(TargetKind.NOTIFY, "RUSTFS_NOTIFY_NATS_JETSTREAM_STREAMNAME_X"))
            .contains("RUSTFS_NOTIFY_NATS_JETSTREAM_STREAM_NAME_X");
    }

    @Test
    void unrelatedNameGetsNoSuggestion() {
        assertThat(KeySuggestion.forTargetVariable(TargetKind.NOTIFY, "RUSTFS_NOTIFY_NATS_FOO")).isEmpty();
        assertThat(KeySuggestion.nearest("JETSINK_XYZ", List.of("JETSINK_DATA_DIR"))).isEmpty();
    }

    @Test
    void editDistanceCountsInsertionsDeletionsAndSubstitutions() {
        assertThat(KeySuggestion.distance("JETSTREM", "JETSTREAM")).isEqualTo(1);
        assertThat(KeySuggestion.distance("abc", "abd")).isEqualTo(1);
        assertThat(KeySuggestion.distance("abc", "ab")).isEqualTo(1);
        assertThat(KeySuggestion.distance("", "abc")).isEqualTo(3);
    }

    @Test
    void messageWithoutSuggestionOmitsTheHint() {
        assertThat(KeySuggestion.unknownKeyMessage("X", java.util.Optional.empty()))
            .isEqualTo("unknown configuration key X");
    }

    private static final List<String> PREFIXES = List.of("RUSTFS_NOTIFY_NATS_", "RUSTFS_AUDIT_NATS_", "JETSINK_");

    @Test
    void aMistypedPrefixSuggestsTheVariableUnderTheRightOne() {
        assertThat(KeySuggestion.forMistypedPrefix("RUSTFS_AUIDT_NATS_ENABLE", PREFIXES)).contains("RUSTFS_AUDIT_NATS_ENABLE");
        assertThat(KeySuggestion.forMistypedPrefix("RUSTFS_NOTIFY_NAT_QUEUE_LIMIT", PREFIXES))
            .contains("RUSTFS_NOTIFY_NATS_QUEUE_LIMIT");
        assertThat(KeySuggestion.forMistypedPrefix("RUSTFS_NOTIFYNATS_ENABLE", PREFIXES)).contains("RUSTFS_NOTIFY_NATS_ENABLE");
        assertThat(KeySuggestion.forMistypedPrefix("JETSNK_ADMIN_TOKEN", PREFIXES)).contains("JETSINK_ADMIN_TOKEN");
    }

    @Test
    void theStoresOtherTargetsAndKnownPrefixesGetNoPrefixSuggestion() {
        for (String v : List.of("RUSTFS_NOTIFY_MQTT_ENABLE", "RUSTFS_NOTIFY_WEBHOOK_ENABLE_X", "RUSTFS_AUDIT_KAFKA_ENABLE",
                "RUSTFS_NOTIFY_NSQ_ENABLE", "RUSTFS_NOTIFY_NATS_ENABLE", "JETSINK_ADMIN_TOKEN", "PATH", "JAVA_HOME",
                "RUSTFS_NOTIFY_NAT_")) {
            assertThat(KeySuggestion.forMistypedPrefix(v, PREFIXES)).as(v).isEmpty();
        }
    }
}

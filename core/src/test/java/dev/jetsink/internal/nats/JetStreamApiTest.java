package dev.jetsink.internal.nats;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JetStreamApiTest {

    @Test
    void aDomainSendsRequestsToItsOwnApiSubjects() {
        assertThat(JetStreamApi.domain("hub").options(Duration.ofSeconds(3)).getPrefix()).isEqualTo("$JS.hub.API.");
        assertThat(JetStreamApi.domain("hub").options(Duration.ofSeconds(3)).getRequestTimeout())
            .isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aPrefixIsUsedAsGiven() {
        assertThat(JetStreamApi.prefix("$JS.hub.API").options().getPrefix()).isEqualTo("$JS.hub.API.");
        assertThat(JetStreamApi.prefix("imported.js").describe()).isEqualTo("JetStream API prefix imported.js");
    }

    @Test
    void theDefaultIsTheAccountsOwnApi() {
        assertThat(JetStreamApi.DEFAULT.options().getPrefix()).isEqualTo("$JS.API.");
        assertThat(JetStreamApi.DEFAULT.isDefault()).isTrue();
    }

    @Test
    void domainAndPrefixExcludeEachOtherAndBadValuesAreRefused() {
        assertThatThrownBy(() -> new JetStreamApi(Optional.of("hub"), Optional.of("$JS.hub.API")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exclude each other");
        assertThatThrownBy(() -> JetStreamApi.domain("a.b")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("jetstream_domain must be one token");
        assertThatThrownBy(() -> JetStreamApi.prefix("$JS.>")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("wildcards");
    }
}

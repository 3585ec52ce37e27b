package dev.jetsink.internal.nats;

import dev.jetsink.internal.config.Secret;
import dev.jetsink.internal.config.TargetConfig;
import dev.jetsink.internal.config.TargetKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConnectionSettingsTest {

    @Test
    void hostAndPortBecomesANatsUrl() {
        assertThat(ConnectionSettings.forAddress("127.0.0.1:4222").servers()).containsExactly("nats://127.0.0.1:4222");
    }

    @Test
    void commaListOfUrlsBecomesClusterSeeds() {
        assertThat(ConnectionSettings.parseAddress("nats://a:4222, tls://b:4223 ,nats://c:4224"))
                .containsExactly("nats://a:4222", "tls://b:4223", "nats://c:4224");
    }

    @Test
    void urlMayOmitThePortButHostPortMayNot() {
        assertThat(ConnectionSettings.parseAddress("nats://a")).containsExactly("nats://a");
        assertThatThrownBy(() -> ConnectionSettings.parseAddress("a"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("host:port");
    }

    @Test
    void otherSchemesAreRefused() {
        assertThatThrownBy(() -> ConnectionSettings.parseAddress("http://a:80"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nats:// or tls:// URLs");
    }

    @Test
    void emptyAddressIsRefused() {
        assertThatThrownBy(() -> ConnectionSettings.parseAddress(" , "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("host:port");
    }

    @Test
    void toStringPrintsSecretsAsStars() {
        String userPass = ConnectionSettings.builder("h:4222").userPassword("alice", "s3cret-pass").build().toString();
        String token = ConnectionSettings.builder("h:4222").token("s3cret-token").build().toString();
        assertThat(userPass).contains("password=***").contains("username=alice").doesNotContain("s3cret-pass");
        assertThat(token).contains("token=***").doesNotContain("s3cret-token");
    }

    @Test
    void userInfoInAServerUrlIsHiddenWhenShown() {
        ConnectionSettings s = new ConnectionSettings(List.of("nats://alice:urlpass@h:4222"), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), false, JetStreamApi.DEFAULT);
        assertThat(s.toString()).contains("nats://***@h:4222").doesNotContain("urlpass");
    }

    @Test
    void targetConfigRevealsItsSecretsOnlyToTheSettings() {
        TargetConfig target = new TargetConfig(TargetKind.NOTIFY, "primary", List.of("tls://h:4222"), "s",
                Optional.of("alice"), Optional.of(new Secret("pw")), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of(Path.of("/ca.pem")), Optional.empty(), Optional.empty(), true, Optional.empty(),
                100_000, false, Optional.empty(), Duration.ofSeconds(30), Optional.of("hub"), Optional.empty(),
                Optional.empty(), 1024, dev.jetsink.MsgIdMode.CONTENT,
                dev.jetsink.PayloadFormat.ENVELOPE, dev.jetsink.OrderMode.NONE, 10_000, Duration.ofHours(72), "notify primary:nats");
        ConnectionSettings s = ConnectionSettings.from(target);
        assertThat(s.servers()).containsExactly("tls://h:4222");
        assertThat(s.password()).contains(new Secret("pw"));
        assertThat(s.password().orElseThrow()).hasToString("***");
        assertThat(s.tlsCa()).contains(Path.of("/ca.pem"));
        assertThat(s.tlsRequired()).isTrue();
        assertThat(s.jetStreamApi()).isEqualTo(JetStreamApi.domain("hub"));
    }

    @Test
    void seedFileIsShownAsItsPathOnly() {
        String shown = ConnectionSettings.builder("h:4222").nkeySeedFile(Path.of("/etc/jetsink/user.nk")).build().toString();
        assertThat(shown).contains("nkeySeedFile=/etc/jetsink/user.nk");
    }

    @Test
    void seedFileCountsAsAnAuthMethod() {
        assertThatThrownBy(() -> ConnectionSettings.builder("h:1").token("t").nkeySeedFile(Path.of("/u.nk")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nkey_seed_file");
    }

    @Test
    void atMostOneAuthMethod() {
        assertThatThrownBy(() -> ConnectionSettings.builder("h:1").token("t").credentialsFile(Path.of("/c.creds")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most one auth method");
    }

    @Test
    void tlsIsOnForTlsUrlsCaOrRequiredFlag() {
        assertThat(ConnectionSettings.forAddress("h:1").tlsEnabled()).isFalse();
        assertThat(ConnectionSettings.forAddress("tls://h:1").tlsEnabled()).isTrue();
        assertThat(ConnectionSettings.builder("h:1").tlsCa(Path.of("/ca.pem")).build().tlsEnabled()).isTrue();
        assertThat(ConnectionSettings.builder("h:1").tlsRequired(true).build().tlsEnabled()).isTrue();
    }

    @Test
    void tlsFilesListsWhatIsConfigured() {
        ConnectionSettings s = ConnectionSettings.builder("h:1").tlsCa(Path.of("/ca.pem"))
                .tlsClient(Path.of("/c.pem"), Path.of("/k.pem")).build();
        assertThat(s.tlsFiles()).containsExactly(Path.of("/ca.pem"), Path.of("/c.pem"), Path.of("/k.pem"));
    }
}

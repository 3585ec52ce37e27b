package dev.jetsink.server.http;

import dev.jetsink.internal.config.Secret;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The token forms real senders produce (FORMATS.md, "Senders"). */
class BearerTokenTest {

    private final BearerToken token = new BearerToken(new Secret("s3cret"));

    @Test
    void ingestTakesBearerAsMinioNotifyAndRustfsSendIt() {
        assertThat(token.acceptsAnySenderForm(Optional.of("Bearer s3cret"))).isTrue();
        assertThat(token.acceptsAnySenderForm(Optional.of("bearer s3cret"))).isTrue();
        assertThat(token.acceptsAnySenderForm(Optional.of("Bearer s3creT"))).isFalse();
    }

    @Test
    void ingestTakesTheBareTokenAsMinioAuditSendsIt() {
        assertThat(token.acceptsAnySenderForm(Optional.of("s3cret"))).isTrue();
        assertThat(token.acceptsAnySenderForm(Optional.of("s3cre"))).isFalse();
    }

    @Test
    void ingestTakesTheTokenAsTheBasicPasswordAsCephCanSendIt() {
        assertThat(token.acceptsAnySenderForm(Optional.of("Basic " + basic("ceph:s3cret")))).isTrue();
        assertThat(token.acceptsAnySenderForm(Optional.of("Basic " + basic("anyone:s3cret")))).isTrue();
        assertThat(token.acceptsAnySenderForm(Optional.of("Basic " + basic("s3cret:wrong")))).isFalse();
        assertThat(token.acceptsAnySenderForm(Optional.of("Basic " + basic("s3cret")))).as("no password").isFalse();
        assertThat(token.acceptsAnySenderForm(Optional.of("Basic !!not-base64"))).isFalse();
    }

    @Test
    void noHeaderOrAnEmptyOneIsRefused() {
        assertThat(token.acceptsAnySenderForm(Optional.empty())).isFalse();
        assertThat(token.acceptsAnySenderForm(Optional.of(""))).isFalse();
        assertThat(token.acceptsAnySenderForm(Optional.of("Bearer "))).isFalse();
    }

    @Test
    void theAdminApiTakesOnlyBearer() {
        assertThat(token.accepts(Optional.of("Bearer s3cret"))).isTrue();
        assertThat(token.accepts(Optional.of("s3cret"))).isFalse();
        assertThat(token.accepts(Optional.of("Basic " + basic("admin:s3cret")))).isFalse();
    }

    private static String basic(String pair) {
        return Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    }
}

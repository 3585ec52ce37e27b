package dev.jetsink.server.http;

import dev.jetsink.internal.config.Secret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;

/**
 * Checks an {@code Authorization} header against a configured secret. The admin API takes only
 * {@code Bearer <token>}; ingest also takes the forms real senders can produce (FORMATS.md,
 * "Senders"): the bare token (MinIO's audit webhook sends its {@code auth_token} verbatim) and HTTP
 * Basic with the token as the password (Ceph RGW can only put {@code user:password@} in its push
 * endpoint). The comparison is constant-time over digests, so response timing reveals nothing
 * about how much of a guess was right.
 */
public final class BearerToken {
    private static final String BEARER = "bearer ";
    private static final String BASIC = "basic ";
    private final byte[] expected;

    public BearerToken(Secret secret) {
        this.expected = digest(secret.reveal());
    }

    /** True when {@code header} (the Authorization value, if any) is {@code Bearer <token>}. */
    public boolean accepts(Optional<String> header) {
        return header.flatMap(h -> after(h.trim(), BEARER)).map(this::matches).orElse(false);
    }

    /** True when {@code header} carries the token as {@code Bearer}, bare, or as the Basic password. */
    public boolean acceptsAnySenderForm(Optional<String> header) {
        if (header.isEmpty()) {
            return false;
        }
        String h = header.get().trim();
        Optional<String> bearer = after(h, BEARER);
        if (bearer.isPresent()) {
            return matches(bearer.get());
        }
        Optional<String> basic = after(h, BASIC).flatMap(BearerToken::basicPassword);
        if (basic.isPresent()) {
            return matches(basic.get());
        }
        return matches(h);
    }

    private boolean matches(String presented) {
        return MessageDigest.isEqual(expected, digest(presented.trim()));
    }

    private static Optional<String> after(String header, String scheme) {
        if (header.length() < scheme.length()
            || !header.substring(0, scheme.length()).toLowerCase(Locale.ROOT).equals(scheme)) {
            return Optional.empty();
        }
        return Optional.of(header.substring(scheme.length()));
    }

    // user:password, base64; the user name is not checked (Ceph users pick any).
    private static Optional<String> basicPassword(String encoded) {
        try {
            String pair = new String(Base64.getDecoder().decode(encoded.trim()), StandardCharsets.UTF_8);
            int colon = pair.indexOf(':');
            return colon < 0 ? Optional.empty() : Optional.of(pair.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            return Optional.of("");
        }
    }

    // Hashing first makes the compare independent of the presented token's length too.
    private static byte[] digest(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}

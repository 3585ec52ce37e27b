package dev.jetsink.server;

import dev.jetsink.config.Secret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * Checks {@code Authorization: Bearer <token>} against a configured secret. The comparison is
 * constant-time over the digests so response timing reveals nothing about how much of a guess
 * was right.
 */
final class BearerToken {
    private static final String PREFIX = "bearer ";
    private final byte[] expected;

    BearerToken(Secret secret) {
        this.expected = digest(secret.reveal());
    }

    /** True when {@code header} (the Authorization value, if any) carries the configured token. */
    boolean accepts(Optional<String> header) {
        if (header.isEmpty()) {
            return false;
        }
        String h = header.get().trim();
        if (h.length() < PREFIX.length() || !h.substring(0, PREFIX.length()).equalsIgnoreCase(PREFIX)) {
            return false;
        }
        return MessageDigest.isEqual(expected, digest(h.substring(PREFIX.length()).trim()));
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

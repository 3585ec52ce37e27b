package dev.jetsink.internal.delivery;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** The 64-bit hashes {@link KeySequences} keeps object keys and msg ids by (never 0). */
final class ObjectHashes {

    private ObjectHashes() {
    }

    /**
     * The hash a msg id is kept by: a UUID's own bits folded (jetsink's msg ids are UUIDs, content
     * digests or random), else {@link #key}.
     */
    static long msgId(String msgId) {
        if (msgId.length() == 36) {
            try {
                java.util.UUID u = java.util.UUID.fromString(msgId);
                long h = u.getMostSignificantBits() ^ Long.rotateLeft(u.getLeastSignificantBits(), 17);
                return h == 0 ? 1 : h;
            } catch (IllegalArgumentException notAUuid) {
                // hashed below
            }
        }
        return key(msgId);
    }

    /** The hash a key is kept by: the first 8 bytes of its SHA-256, never 0. */
    static long key(String text) {
        byte[] d = SHA.get().digest(text.getBytes(StandardCharsets.UTF_8));
        long h = ByteBuffer.wrap(d).getLong();
        return h == 0 ? 1 : h;
    }

    private static final ThreadLocal<MessageDigest> SHA = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    });
}

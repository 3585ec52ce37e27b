package dev.jetsink.internal.delivery;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;

/**
 * The 64-bit hashes {@link KeySequences} keeps object keys and msg ids by (never 0). Worked out on
 * the dispatcher's thread for every event of an ordered target, so they allocate as little as they
 * can: the digest goes into a buffer kept per thread, and a UUID is read without making one.
 */
final class ObjectHashes {
    private static final VarHandle LONG_AT = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private ObjectHashes() {
    }

    /**
     * The hash a msg id is kept by: a UUID's own bits folded (jetsink's msg ids are UUIDs, content
     * digests or random), else {@link #key}.
     */
    static long msgId(String msgId) {
        if (msgId.length() == 36) {
            long h;
            if (canonicalUuid(msgId)) {
                h = hex(msgId, 0, 8) << 32 | hex(msgId, 9, 13) << 16 | hex(msgId, 14, 18);
                h ^= Long.rotateLeft(hex(msgId, 19, 23) << 48 | hex(msgId, 24, 36), 17);
                return h == 0 ? 1 : h;
            }
            try {
                // another form UUID.fromString reads too: the same bits as before
                java.util.UUID u = java.util.UUID.fromString(msgId);
                h = u.getMostSignificantBits() ^ Long.rotateLeft(u.getLeastSignificantBits(), 17);
                return h == 0 ? 1 : h;
            } catch (IllegalArgumentException notAUuid) {
                // hashed below
            }
        }
        return key(msgId);
    }

    /** Whether {@code s} (36 characters) is 8-4-4-4-12 hex digits, either case, as a UUID prints. */
    private static boolean canonicalUuid(String s) {
        for (int i = 0; i < 36; i++) {
            char c = s.charAt(i);
            boolean ok = i == 8 || i == 13 || i == 18 || i == 23 ? c == '-' : Character.digit(c, 16) >= 0 && c < 128;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** The hex digits of {@code s} from {@code from} to {@code to} (at most 16, all checked) as a number. */
    private static long hex(String s, int from, int to) {
        long v = 0;
        for (int i = from; i < to; i++) {
            v = v << 4 | Character.digit(s.charAt(i), 16);
        }
        return v;
    }

    /** The hash a key is kept by: the first 8 bytes of its SHA-256, never 0. */
    static long key(String text) {
        Sha sha = SHA.get();
        sha.digest.update(text.getBytes(StandardCharsets.UTF_8));
        try {
            sha.digest.digest(sha.out, 0, sha.out.length);
        } catch (DigestException e) {
            throw new IllegalStateException("a SHA-256 fits its 32 bytes", e);
        }
        long h = (long) LONG_AT.get(sha.out, 0);
        return h == 0 ? 1 : h;
    }

    /** A thread's SHA-256 and the buffer its digests go to. */
    private record Sha(MessageDigest digest, byte[] out) {
    }

    private static final ThreadLocal<Sha> SHA = ThreadLocal.withInitial(() -> {
        try {
            return new Sha(MessageDigest.getInstance("SHA-256"), new byte[32]);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    });
}

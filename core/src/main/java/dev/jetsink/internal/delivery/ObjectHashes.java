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
            long msb;
            long lsb;
            if (msgId.charAt(8) == '-' && msgId.charAt(13) == '-' && msgId.charAt(18) == '-' && msgId.charAt(23) == '-') {
                long a = hex4(msgId, 0);
                long b = hex4(msgId, 4);
                long c = hex4(msgId, 9);
                long d = hex4(msgId, 14);
                long e = hex4(msgId, 19);
                long f = hex4(msgId, 24);
                long g = hex4(msgId, 28);
                long k = hex4(msgId, 32);
                if ((a | b | c | d | e | f | g | k) >= 0) {
                    msb = a << 48 | b << 32 | c << 16 | d;
                    lsb = e << 48 | f << 32 | g << 16 | k;
                    return fold(msb, lsb);
                }
            }
            try {
                // another form UUID.fromString reads: the same bits as before
                java.util.UUID u = java.util.UUID.fromString(msgId);
                return fold(u.getMostSignificantBits(), u.getLeastSignificantBits());
            } catch (IllegalArgumentException notAUuid) {
                // hashed below
            }
        }
        return key(msgId);
    }

    private static long fold(long msb, long lsb) {
        long h = msb ^ Long.rotateLeft(lsb, 17);
        return h == 0 ? 1 : h;
    }

    /** The four hex digits (either case) of {@code s} at {@code at} as a number; negative when one is not a hex digit. */
    private static long hex4(String s, int at) {
        int v = 0;
        for (int i = at; i < at + 4; i++) {
            char c = s.charAt(i);
            v = v << 4 | (c < 128 ? HEX[c] : -1);
        }
        return v;
    }

    /** Each ASCII character's value as a hex digit, or -1. */
    private static final byte[] HEX = new byte[128];

    static {
        java.util.Arrays.fill(HEX, (byte) -1);
        for (int d = 0; d < 16; d++) {
            HEX["0123456789abcdef".charAt(d)] = (byte) d;
            HEX["0123456789ABCDEF".charAt(d)] = (byte) d;
        }
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

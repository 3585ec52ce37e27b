package dev.jetsink.internal.target;

import dev.jetsink.internal.config.TargetKind;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;

/**
 * The content-derived {@code Nats-Msg-Id} of an event on one target (issue #12): a name-based
 * UUID, version 8 (RFC 9562, section 5.8), from the first 128 bits of
 * {@code SHA-256("jetsink-msg-id-v1" 0x00 kind 0x00 target-id 0x00 content-digest)}, where the
 * content digest is the SHA-256 of the record's canonical form
 * ({@link dev.jetsink.internal.event.CanonicalJson}), computed once per body however many targets it
 * reaches. The same record re-sent by a store gets the same id on the same target, so the
 * stream's duplicate window stores it once; two targets (another kind, or another id on the same
 * stream) get different ids and both store it.
 */
public final class ContentMsgId {

    private static final byte[] DOMAIN = "jetsink-msg-id-v1".getBytes(StandardCharsets.US_ASCII);

    private ContentMsgId() {
    }

    /** The msg id of the event with {@code contentDigest} on target {@code kind}/{@code targetId}. */
    public static UUID of(TargetKind kind, String targetId, byte[] contentDigest) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
        sha.update(DOMAIN);
        sha.update((byte) 0);
        sha.update(kind.label().getBytes(StandardCharsets.US_ASCII));
        sha.update((byte) 0);
        sha.update(targetId.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(contentDigest);
        byte[] h = sha.digest();
        h[6] = (byte) ((h[6] & 0x0F) | 0x80); // version 8
        h[8] = (byte) ((h[8] & 0x3F) | 0x80); // variant 10
        ByteBuffer b = ByteBuffer.wrap(h, 0, 16);
        return new UUID(b.getLong(), b.getLong());
    }
}

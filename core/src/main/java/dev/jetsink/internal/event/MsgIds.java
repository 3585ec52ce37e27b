package dev.jetsink.internal.event;

import dev.jetsink.MsgIdMode;
import dev.jetsink.internal.config.TargetKind;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * Everything about a {@code Nats-Msg-Id} in one place (DESIGN.md "Msg ids"): which id an event gets
 * on a target ({@link #forEvent}), what an id may be ({@link #check}), and the two ways jetsink makes
 * one — derived from the content ({@link #content}) or minted at random as a UUIDv7 by the queue
 * ({@link Minter}). The queue stores the chosen id with the entry as ASCII text, so every retry and
 * replay publishes the same one.
 */
public final class MsgIds {
    /** The longest msg id a queue record holds. */
    public static final int MAX_BYTES = 128;

    private static final byte[] DOMAIN = "jetsink-msg-id-v1".getBytes(StandardCharsets.US_ASCII);

    private MsgIds() {
    }

    /**
     * The msg id {@code event} is queued with on target {@code kind}/{@code targetId}: the caller's
     * own when it gave one (checked when it was given), else the content-derived one under
     * {@code MSG_ID=content}; empty under {@code MSG_ID=random}, where the queue mints one with
     * {@link Minter}.
     */
    public static Optional<String> forEvent(OutboundEvent event, MsgIdMode mode, TargetKind kind, String targetId) {
        if (event.msgId().isPresent()) {
            return event.msgId();
        }
        return mode == MsgIdMode.CONTENT
            ? Optional.of(content(kind, targetId, event.contentDigest()).toString())
            : Optional.empty();
    }

    /**
     * Returns {@code id} when it is a valid msg id: 1 to {@value #MAX_BYTES} printable ASCII
     * characters without spaces ({@code !} to {@code ~}). jetsink's own ids (UUIDs) always are; a
     * caller's id is checked once, when it is given, so a bad one is refused at the call, not at the
     * publish.
     *
     * @throws IllegalArgumentException naming what is wrong (the id itself is quoted only in part)
     */
    public static String check(String id) {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("msg id must not be empty");
        }
        if (id.length() > MAX_BYTES) {
            throw new IllegalArgumentException("msg id is " + id.length() + " characters long; at most " + MAX_BYTES
                + " are allowed");
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c < '!' || c > '~') {
                throw new IllegalArgumentException("msg id may hold printable ASCII characters without spaces only;"
                    + " character " + (i + 1) + " is U+" + String.format("%04X", (int) c));
            }
        }
        return id;
    }

    /**
     * The content-derived msg id of an event on one target: a name-based UUID, version 8 (RFC 9562,
     * section 5.8), from the first 128 bits of
     * {@code SHA-256("jetsink-msg-id-v1" 0x00 kind 0x00 target-id 0x00 content-digest)}, where the
     * content digest is the SHA-256 of the record's canonical form ({@link CanonicalJson}), computed
     * once per body however many targets it reaches. The same record re-sent by a store gets the
     * same id on the same target, so the stream's duplicate window stores it once; two targets
     * (another kind, or another id on the same stream) get different ids and both store it.
     */
    public static UUID content(TargetKind kind, String targetId, byte[] contentDigest) {
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

    /**
     * Mints random msg ids as UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, a 12-bit counter that
     * keeps ids minted within one millisecond ordered, and 62 random bits from a generator seeded by
     * {@link SecureRandom}, so ids of different processes and restarts do not collide. One per queue.
     */
    public static final class Minter {
        private final Clock clock;
        private final SplittableRandom random = new SplittableRandom(new SecureRandom().nextLong());
        private long lastMs = -1;
        private int counter;

        public Minter(Clock clock) {
            this.clock = clock;
        }

        /** The next id, as its text. */
        public String next() {
            return nextUuid().toString();
        }

        synchronized UUID nextUuid() {
            long ms = clock.millis();
            if (ms <= lastMs) {
                counter++;
                if (counter > 0xFFF) {
                    // more than 4096 ids in one millisecond: borrow the next millisecond to stay ordered
                    lastMs++;
                    counter = 0;
                }
            } else {
                lastMs = ms;
                counter = random.nextInt(0x400);
            }
            long msb = (lastMs & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | counter;
            long lsb = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
            return new UUID(msb, lsb);
        }
    }
}

package dev.jetsink.internal.queue;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * Mints {@code Nats-Msg-Id}s as UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, a 12-bit counter
 * that keeps ids minted within one millisecond ordered, and 62 random bits from a generator seeded
 * by {@link SecureRandom}, so ids of different processes and restarts do not collide.
 */
final class MsgIdMinter {
    private final Clock clock;
    private final SplittableRandom random = new SplittableRandom(new SecureRandom().nextLong());
    private long lastMs = -1;
    private int counter;

    MsgIdMinter(Clock clock) {
        this.clock = clock;
    }

    synchronized UUID next() {
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

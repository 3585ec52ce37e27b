package dev.jetsink.internal.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ObjectHashesTest {

    /** The hash as the first version worked it out, through a UUID and a fresh digest: stored tables hold these. */
    private static long asStored(String msgId) throws Exception {
        if (msgId.length() == 36) {
            try {
                UUID u = UUID.fromString(msgId);
                long h = u.getMostSignificantBits() ^ Long.rotateLeft(u.getLeastSignificantBits(), 17);
                return h == 0 ? 1 : h;
            } catch (IllegalArgumentException notAUuid) {
                // hashed below
            }
        }
        return sha64(msgId);
    }

    private static long sha64(String text) throws Exception {
        long h = ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8))).getLong();
        return h == 0 ? 1 : h;
    }

    @Test
    void aUuidMsgIdHashesAsItDidThroughJavasUuidInEitherCase() throws Exception {
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 10_000; i++) {
            String id = new UUID(random.nextLong(), random.nextLong()).toString();
            assertThat(ObjectHashes.msgId(id)).isEqualTo(asStored(id));
            String upper = id.toUpperCase(Locale.ROOT);
            assertThat(ObjectHashes.msgId(upper)).isEqualTo(asStored(upper));
        }
    }

    @Test
    void otherMsgIdsAndKeysHashAsTheyDid() throws Exception {
        for (String id : new String[] {"m-1", "", "photos/a.jpg", "0000000-0000-0000-0000-0000000000000", // 36, dashes elsewhere
            "g0000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-00000000000\u0661", "ä".repeat(36),
            "00000000-0000-0000-0000-000000000000"}) {
            assertThat(ObjectHashes.msgId(id)).as(id).isEqualTo(asStored(id));
            assertThat(ObjectHashes.key(id)).as(id).isEqualTo(sha64(id));
        }
    }
}

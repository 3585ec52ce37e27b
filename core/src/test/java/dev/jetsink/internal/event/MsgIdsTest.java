package dev.jetsink.internal.event;

import dev.jetsink.internal.config.TargetKind;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.UUID;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MsgIdsTest {

    private static byte[] digest(String s) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void isAVersion8Rfc9562Uuid() throws Exception {
        UUID id = MsgIds.content(TargetKind.NOTIFY, "_", digest("record"));
        assertThat(id.version()).isEqualTo(8);
        assertThat(id.variant()).isEqualTo(2);
    }

    @Test
    void theSameContentOnTheSameTargetAlwaysGetsTheSameId() throws Exception {
        // Pinned: a re-send after an upgrade must still meet the id stored before it.
        assertThat(MsgIds.content(TargetKind.NOTIFY, "_", digest("record")))
            .isEqualTo(MsgIds.content(TargetKind.NOTIFY, "_", digest("record")))
            .hasToString(MsgIds.content(TargetKind.NOTIFY, "_", digest("record")).toString());
        assertThat(MsgIds.content(TargetKind.NOTIFY, "_", digest("record")).toString())
            .isEqualTo(GOLDEN);
    }

    @Test
    void kindTargetIdAndContentEachChangeTheId() throws Exception {
        UUID base = MsgIds.content(TargetKind.NOTIFY, "primary", digest("record"));
        assertThat(MsgIds.content(TargetKind.AUDIT, "primary", digest("record"))).isNotEqualTo(base);
        assertThat(MsgIds.content(TargetKind.NOTIFY, "secondary", digest("record"))).isNotEqualTo(base);
        assertThat(MsgIds.content(TargetKind.NOTIFY, "primary", digest("record2"))).isNotEqualTo(base);
        // the separators keep "ab"+"c" apart from "a"+"bc"
        assertThat(MsgIds.content(TargetKind.NOTIFY, "primaryx", digest("record")))
            .isNotEqualTo(MsgIds.content(TargetKind.NOTIFY, "primary", digest("xrecord")));
    }

    /** Computed independently (Python hashlib) from the documented derivation. */
    private static final String GOLDEN = "3b163f97-d4de-85f7-bea1-099bcbcaa629";
}

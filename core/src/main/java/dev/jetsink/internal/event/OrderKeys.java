package dev.jetsink.internal.event;

import dev.jetsink.internal.config.TargetKind;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The object an event is about, for a target that keeps each object's order ({@code ORDER=key};
 * DESIGN.md "Order per object"): a notify record's bucket and key as stored, {@code bucket/key};
 * an audit entry's {@code api.bucket/api.object} (a bucket-level call has the bucket's key
 * {@code bucket/}, a call on no bucket the key {@code /}; an audit payload that is no envelope,
 * its bucket and API name). Keys are only compared: one longer than
 * {@value #MAX_BYTES} bytes is kept as its SHA-256.
 */
public final class OrderKeys {
    /** The longest key kept as it is, in UTF-8 bytes. */
    public static final int MAX_BYTES = 2048;

    private OrderKeys() {
    }

    /** The key of an envelope {@link EventParser} made (before any format is applied). */
    public static String of(OutboundEvent event) {
        EventMetadata m = event.metadata();
        String key;
        if (m.kind() == TargetKind.NOTIFY) {
            key = m.bucket() + "/" + m.object();
        } else {
            key = event.formatFields().map(f -> f.bucket() + "/" + f.object()).orElseGet(() -> auditKey(event));
        }
        return bounded(key);
    }

    /** {@code key} itself, or its SHA-256 when it is longer than {@value #MAX_BYTES} bytes or not Unicode. */
    public static String bounded(String key) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= MAX_BYTES && wellFormed(key)) {
            return key;
        }
        return "sha256:" + HexFormat.of().formatHex(CanonicalJson.sha256().digest(bytes));
    }

    /** An audit event made without the one pass: its entry read back, or its metadata when it is no envelope. */
    private static String auditKey(OutboundEvent event) {
        try {
            FormatFields fields = FormatFields.of(TargetKind.AUDIT, MessageFormats.dataOf(event.payload()));
            return fields.bucket() + "/" + fields.object();
        } catch (RuntimeException notAnEnvelope) {
            return event.metadata().bucket() + "/" + event.metadata().object();
        }
    }

    /** Whether {@code s} is Unicode: every surrogate is half of a pair (UTF-8 can carry it). */
    public static boolean wellFormed(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}

package dev.jetsink.internal.event;

import dev.jetsink.TraceContext;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An event ready to queue: its metadata, the exact bytes every publish of it will carry (the
 * envelope, built once at enqueue), its content digest — the SHA-256 of the record's or entry's
 * canonical form ({@link CanonicalJson}), from which each target derives a stable
 * {@code Nats-Msg-Id} (DESIGN.md "Msg ids") — and, for an embedder with its own event identity, the msg id
 * to use instead ({@link #withMsgId}); the W3C trace context it came with ({@link #withTrace}); and
 * the CloudEvents attributes its message carries as {@code ce-} headers ({@link #withCloudEvent}):
 * those a sender's CloudEvent arrived with, or, once formatted for a binary-mode target, the whole
 * set ({@link MessageFormats}); and, for an envelope the one pass wrote, what those formats read of
 * it ({@link FormatFields}), so that they need not parse it again.
 */
public record OutboundEvent(EventMetadata metadata, byte[] payload, byte[] contentDigest, Optional<String> msgId,
                            Optional<TraceContext> trace, Map<String, String> cloudEvent,
                            Optional<FormatFields> formatFields) {
    public OutboundEvent {
        Objects.requireNonNull(formatFields, "formatFields");
        cloudEvent = CloudEventAttributes.copy(cloudEvent);
        Objects.requireNonNull(trace, "trace");
        Objects.requireNonNull(metadata, "metadata");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(contentDigest, "contentDigest");
        Objects.requireNonNull(msgId, "msgId");
        if (contentDigest.length != 32) {
            throw new IllegalArgumentException("contentDigest must be a SHA-256 (32 bytes)");
        }
        msgId.ifPresent(MsgIds::check);
    }

    /** An event whose msg id each target derives from {@code contentDigest} (or mints, {@code MSG_ID=random}). */
    public OutboundEvent(EventMetadata metadata, byte[] payload, byte[] contentDigest) {
        this(metadata, payload, contentDigest, Optional.empty(), Optional.empty(), Map.of(), Optional.empty());
    }

    /** An envelope the one pass wrote, with what the opt-in formats read of it. */
    OutboundEvent(EventMetadata metadata, byte[] payload, byte[] contentDigest, FormatFields fields) {
        this(metadata, payload, contentDigest, Optional.empty(), Optional.empty(), Map.of(), Optional.of(fields));
    }

    /** An event whose identity is its payload bytes (for payloads built outside {@link Envelopes}). */
    public OutboundEvent(EventMetadata metadata, byte[] payload) {
        this(metadata, payload, CanonicalJson.sha256().digest(Objects.requireNonNull(payload, "payload")));
    }

    /**
     * This event with the caller's own {@code Nats-Msg-Id}, used by every target whatever its
     * {@code MSG_ID} mode: 1 to 128 printable ASCII characters without spaces. The stream then
     * stores each id once within its duplicate window, so a caller that sends an event again after
     * a crash, with the same id, gets it stored once.
     *
     * @throws IllegalArgumentException when {@code id} is not a valid msg id ({@link MsgIds#check})
     */
    public OutboundEvent withMsgId(String id) {
        return new OutboundEvent(metadata, payload, contentDigest, Optional.of(MsgIds.check(id)), trace, cloudEvent,
            formatFields);
    }

    /** This event with the trace context it arrived with, stored and published with it. */
    public OutboundEvent withTrace(Optional<TraceContext> context) {
        return new OutboundEvent(metadata, payload, contentDigest, msgId, context, cloudEvent, formatFields);
    }

    /** This event with the CloudEvents attributes its message carries as {@code ce-} headers. */
    public OutboundEvent withCloudEvent(Map<String, String> attributes) {
        return new OutboundEvent(metadata, payload, contentDigest, msgId, trace, attributes, formatFields);
    }

    /** This event without what the pass kept for the formats: they then read its envelope back as a tree. */
    OutboundEvent withoutFormatFields() {
        return new OutboundEvent(metadata, payload, contentDigest, msgId, trace, cloudEvent, Optional.empty());
    }

    /** This event with another payload (its identity, the content digest, unchanged); no longer an envelope. */
    OutboundEvent withPayload(byte[] formatted) {
        return new OutboundEvent(metadata, formatted, contentDigest, msgId, trace, cloudEvent, Optional.empty());
    }
}

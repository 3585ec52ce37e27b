package dev.jetsink.internal.queue;

import dev.jetsink.internal.event.CloudEventAttributes;
import dev.jetsink.internal.event.OrderKeys;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * What a queue record stores beside the event besides its msg id: the replay count,
 * the subject resolved from a {@code SUBJECT} template at enqueue, the W3C trace context the
 * event arrived with and the CloudEvents attributes its message carries as {@code ce-}
 * headers, and the object an ordered target keeps the order of. Each is an optional attribute of
 * the version 2 record, written only when present.
 *
 * @param replays     how often the entry was replayed from the failed store
 * @param subject     the entry's own subject; empty means the target's {@code SUBJECT}, resolved
 *                    for the entry when it is a template
 * @param traceparent a W3C {@code traceparent} value
 * @param tracestate  a W3C {@code tracestate} value
 * @param cloudEvent  the CloudEvents attributes published as {@code ce-} headers, a JSON object of
 *                    strings ({@link CloudEventAttributes})
 * @param orderKey    the object the event is about, for a target that keeps each object's order
 *                    ({@code ORDER=key}): entries with the same key are stored in queue order
 */
public record EntryAttributes(int replays, Optional<String> subject, Optional<String> traceparent,
                              Optional<String> tracestate, Optional<String> cloudEvent, Optional<String> orderKey) {
    /** Longest stored subject, in UTF-8 bytes. */
    public static final int MAX_SUBJECT_BYTES = 4096;
    /** Longest stored trace value (traceparent is 55 characters; tracestate is capped at 512 by W3C). */
    public static final int MAX_TRACE_BYTES = 512;
    /** Longest stored set of CloudEvents attributes, in UTF-8 bytes of its JSON. */
    public static final int MAX_CLOUD_EVENT_BYTES = CloudEventAttributes.MAX_JSON_BYTES;
    /** Longest stored order key, in UTF-8 bytes (an S3 key has at most 1 024, a bucket name 63). */
    public static final int MAX_ORDER_KEY_BYTES = 2048;

    /** No attribute: a first-time entry on the target's subject without trace context. */
    public static final EntryAttributes NONE = new EntryAttributes(0, Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty());

    public EntryAttributes {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(traceparent, "traceparent");
        Objects.requireNonNull(tracestate, "tracestate");
        Objects.requireNonNull(cloudEvent, "cloudEvent");
        Objects.requireNonNull(orderKey, "orderKey");
        if (replays < 0) {
            throw new IllegalArgumentException("replays must not be negative: " + replays);
        }
        check(subject, MAX_SUBJECT_BYTES, "subject");
        check(traceparent, MAX_TRACE_BYTES, "traceparent");
        check(tracestate, MAX_TRACE_BYTES, "tracestate");
        check(cloudEvent, MAX_CLOUD_EVENT_BYTES, "cloudEvent");
        if (orderKey.isPresent() && (!OrderKeys.wellFormed(orderKey.get())
            || orderKey.get().getBytes(StandardCharsets.UTF_8).length > MAX_ORDER_KEY_BYTES)) {
            throw new IllegalArgumentException("orderKey must be well-formed and at most " + MAX_ORDER_KEY_BYTES + " bytes");
        }
    }

    private static void check(Optional<String> value, int max, String name) {
        if (value.isEmpty()) {
            return;
        }
        String v = value.get();
        if (!OrderKeys.wellFormed(v)) {
            // UTF-8 cannot carry an unpaired surrogate: it would be stored as '?' and read back changed
            throw new IllegalArgumentException(name + " contains an unpaired UTF-16 surrogate");
        }
        if (v.isEmpty() || v.getBytes(StandardCharsets.UTF_8).length > max) {
            throw new IllegalArgumentException(name + " must be 1 to " + max + " bytes");
        }
    }

    /** Only a replay count. */
    public static EntryAttributes replays(int replays) {
        return replays == 0 ? NONE : new EntryAttributes(replays, Optional.empty(), Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty());
    }

    public EntryAttributes withSubject(Optional<String> s) {
        return new EntryAttributes(replays, s, traceparent, tracestate, cloudEvent, orderKey);
    }

    public EntryAttributes withTrace(Optional<String> parent, Optional<String> state) {
        return new EntryAttributes(replays, subject, parent, parent.isPresent() ? state : Optional.empty(), cloudEvent,
            orderKey);
    }

    public EntryAttributes withCloudEvent(Optional<String> attributes) {
        return new EntryAttributes(replays, subject, traceparent, tracestate, attributes, orderKey);
    }

    public EntryAttributes withOrderKey(Optional<String> key) {
        return new EntryAttributes(replays, subject, traceparent, tracestate, cloudEvent, key);
    }
}

package dev.jetsink.internal.event;

import dev.jetsink.internal.config.TargetKind;
import java.util.Objects;

/**
 * What the queue stores beside an event's payload so that logs, the failed store and
 * {@code queue list} can name an event without parsing its JSON.
 *
 * @param kind        notify or audit
 * @param bucket      bucket name ({@code api.bucket} for audit), empty when unknown
 * @param object      object key as stored in the bucket ({@code api.name} for audit), empty when unknown
 * @param eventName   S3 event name or audit {@code event}, empty when unknown
 * @param contentType the object's content type when the event carries one, else empty
 */
public record EventMetadata(TargetKind kind, String bucket, String object, String eventName, String contentType) {
    public EventMetadata {
        Objects.requireNonNull(kind, "kind");
        bucket = bucket == null ? "" : bucket;
        object = object == null ? "" : object;
        eventName = eventName == null ? "" : eventName;
        contentType = contentType == null ? "" : contentType;
    }
}

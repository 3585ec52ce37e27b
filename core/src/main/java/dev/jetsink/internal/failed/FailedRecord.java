package dev.jetsink.internal.failed;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.event.MsgIds;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * One event that a target rejected terminally (DESIGN.md "Failed-events store"): what the failed
 * store keeps. Never republished by jetsink on its own; an operator may replay it,
 * which queues it again with its msg id.
 *
 * <p>Both instants are truncated to milliseconds, the resolution of the queue's queued-at and of
 * the failed-record file name, so the name and the {@code failed_at} field always agree.
 *
 * @param id          the queue entry's sequence number
 * @param natsMsgId   the {@code Nats-Msg-Id} every publish of the event carried
 * @param target      the target's display id, e.g. {@code notify primary:nats}
 * @param kind        notify or audit
 * @param subject     the NATS subject the event was published to
 * @param bucket      bucket name, empty when unknown
 * @param object      object key, empty when unknown
 * @param eventName   S3 event name or audit event, empty when unknown
 * @param queuedAt    when the event entered the local queue
 * @param failedAt    when the terminal rejection was recorded
 * @param errorClass  always {@link #TERMINAL} for records jetsink writes
 * @param errorDetail fixed-vocabulary description of the rejection (DESIGN.md "Classification"),
 *                    never raw server text
 * @param retryCount  publish attempts over the entry's lifetime
 * @param payload     the exact published bytes (the envelope JSON)
 * @param contentType the object's content type from the queue entry, empty when unknown
 * @param replays     how often an operator had replayed the event before this failure
 * @param cloudEvent  the CloudEvents attributes its message carried as {@code ce-} headers (their
 *                    stored JSON form), empty when none
 * @param orderKey    the object an ordered target ({@code ORDER=key}) kept its order by, empty when none;
 *                    a replay queues the event under it again
 */
public record FailedRecord(
        long id,
        String natsMsgId,
        String target,
        TargetKind kind,
        String subject,
        String bucket,
        String object,
        String eventName,
        Instant queuedAt,
        Instant failedAt,
        String errorClass,
        String errorDetail,
        int retryCount,
        byte[] payload,
        String contentType,
        int replays,
        Optional<String> cloudEvent,
        Optional<String> orderKey) {

    /** The only error class the store records: a terminal rejection. */
    public static final String TERMINAL = "terminal";

    public FailedRecord {
        Objects.requireNonNull(natsMsgId, "natsMsgId");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(object, "object");
        Objects.requireNonNull(eventName, "eventName");
        Objects.requireNonNull(errorClass, "errorClass");
        Objects.requireNonNull(errorDetail, "errorDetail");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(cloudEvent, "cloudEvent");
        Objects.requireNonNull(orderKey, "orderKey");
        if (replays < 0) {
            throw new IllegalArgumentException("replays must not be negative: " + replays);
        }
        // a record read back from disk may have been edited: its id goes to the queue on replay
        MsgIds.check(natsMsgId);
        if (retryCount < 0) {
            throw new IllegalArgumentException("retryCount must not be negative: " + retryCount);
        }
        queuedAt = Objects.requireNonNull(queuedAt, "queuedAt").truncatedTo(ChronoUnit.MILLIS);
        failedAt = Objects.requireNonNull(failedAt, "failedAt").truncatedTo(ChronoUnit.MILLIS);
        // Defensive copy: the record is a value and the caller may reuse its buffer.
        payload = payload.clone();
    }

    /**
     * A terminal record for a queued event, taking bucket, object, event name and kind from the
     * event's metadata.
     */
    public static FailedRecord terminal(long id, String natsMsgId, String target, String subject,
            EventMetadata metadata, Instant queuedAt, Instant failedAt, String errorDetail,
            int retryCount, byte[] payload) {
        return terminal(id, natsMsgId, target, subject, metadata, queuedAt, failedAt, errorDetail, retryCount,
                payload, 0, Optional.empty(), Optional.empty());
    }

    /** {@link #terminal} for an event that had been replayed {@code replays} times before. */
    public static FailedRecord terminal(long id, String natsMsgId, String target, String subject,
            EventMetadata metadata, Instant queuedAt, Instant failedAt, String errorDetail,
            int retryCount, byte[] payload, int replays, Optional<String> cloudEvent, Optional<String> orderKey) {
        return new FailedRecord(id, natsMsgId, target, metadata.kind(), subject, metadata.bucket(),
                metadata.object(), metadata.eventName(), queuedAt, failedAt, TERMINAL, errorDetail,
                retryCount, payload, metadata.contentType(), replays, cloudEvent, orderKey);
    }

    /** This record with another {@code failed_at}. */
    public FailedRecord withFailedAt(Instant at) {
        return new FailedRecord(id, natsMsgId, target, kind, subject, bucket, object, eventName, queuedAt, at,
                errorClass, errorDetail, retryCount, payload, contentType, replays, cloudEvent, orderKey);
    }

    /** The event's queue metadata, as it was when the event failed. */
    public EventMetadata metadata() {
        return new EventMetadata(kind, bucket, object, eventName, contentType);
    }

    /** A copy of the published bytes. */
    @Override
    public byte[] payload() {
        return payload.clone();
    }

    // Records compare arrays by identity; a value type must compare the payload's content.
    @Override
    public boolean equals(Object o) {
        return o instanceof FailedRecord r
                && id == r.id && retryCount == r.retryCount
                && natsMsgId.equals(r.natsMsgId) && target.equals(r.target) && kind == r.kind
                && subject.equals(r.subject) && bucket.equals(r.bucket) && object.equals(r.object)
                && eventName.equals(r.eventName) && queuedAt.equals(r.queuedAt)
                && failedAt.equals(r.failedAt) && errorClass.equals(r.errorClass)
                && errorDetail.equals(r.errorDetail) && Arrays.equals(payload, r.payload)
                && contentType.equals(r.contentType) && replays == r.replays && cloudEvent.equals(r.cloudEvent)
                && orderKey.equals(r.orderKey);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, natsMsgId, target, kind, subject, bucket, object, eventName,
                queuedAt, failedAt, errorClass, errorDetail, retryCount, contentType, replays, cloudEvent, orderKey) * 31
                + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return "FailedRecord[id=" + id + ", natsMsgId=" + natsMsgId + ", target=" + target
                + ", bucket=" + bucket + ", object=" + object + ", eventName=" + eventName
                + ", failedAt=" + failedAt + ", errorDetail=" + errorDetail
                + ", retryCount=" + retryCount + ", replays=" + replays + ", payload=" + payload.length + " bytes]";
    }
}

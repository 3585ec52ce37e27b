package dev.jetsink.internal.event;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.event.AuditEntry;
import dev.jetsink.event.S3EventRecord;
import dev.jetsink.internal.config.TargetKind;

/**
 * Builds the payload NATS consumers receive, in the layout RustFS publishes to NATS
 * targets so that existing consumers keep working:
 *
 * <pre>{"EventName":..,"Key":"&lt;bucket&gt;/&lt;key&gt;","Records":[{"object_name":..,"bucket_name":..,"event_name":..,"data":&lt;record or entry&gt;}]}</pre>
 *
 * <p>Field order is fixed and {@code data} keeps the order of the input, so the same input
 * always yields the same bytes. The bytes are built once, at enqueue; every retry publishes them
 * unchanged.
 */
public final class Envelopes {
    private Envelopes() {
    }

    /**
     * The envelope of one S3 event record: {@code Key} is {@code <bucket>/<key as stored>}
     * ({@link S3EventRecord#decodedObjectKey()}), {@code object_name} the key exactly as the
     * record writes it (form-encoded by MinIO, RustFS and AWS, unencoded by Ceph RGW).
     */
    public static OutboundEvent notify(S3EventRecord record) {
        EventMetadata metadata = new EventMetadata(TargetKind.NOTIFY, record.bucketName(),
                record.decodedObjectKey(), record.eventName(), record.contentType().orElse(""));
        byte[] payload = envelope(record.eventName(), record.bucketName() + "/" + record.decodedObjectKey(),
                record.objectKey(), record.bucketName(), EventAccess.tree(record));
        return new OutboundEvent(metadata, payload, CanonicalJson.sha256(EventAccess.tree(record)));
    }

    /**
     * The envelope of one (already redacted) audit entry: {@code object_name} is
     * {@code api.name}, {@code bucket_name} {@code api.bucket}, {@code event_name} the entry's
     * {@code event} and {@code Key} {@code <api.bucket>/<api.name>}; an absent field is the empty
     * string, so a ListBuckets entry has {@code Key} {@code "/ListBuckets"}.
     */
    public static OutboundEvent audit(AuditEntry entry) {
        String name = entry.apiName().orElse("");
        String bucket = entry.apiBucket().orElse("");
        String event = entry.event().orElse("");
        // EventMetadata documents api.name as the audit "object", matching object_name below.
        EventMetadata metadata = new EventMetadata(TargetKind.AUDIT, bucket, name, event, "");
        return new OutboundEvent(metadata, envelope(event, bucket + "/" + name, name, bucket, EventAccess.tree(entry)),
                CanonicalJson.sha256(EventAccess.tree(entry)));
    }

    private static byte[] envelope(String eventName, String key, String objectName, String bucketName, ObjectNode data) {
        return JsonBody.write(gen -> {
            gen.writeStartObject();
            gen.writeStringField("EventName", eventName);
            gen.writeStringField("Key", key);
            gen.writeArrayFieldStart("Records");
            gen.writeStartObject();
            gen.writeStringField("object_name", objectName);
            gen.writeStringField("bucket_name", bucketName);
            gen.writeStringField("event_name", eventName);
            gen.writeFieldName("data");
            JsonBody.writeNode(gen, data, false);
            gen.writeEndObject();
            gen.writeEndArray();
            gen.writeEndObject();
        });
    }
}

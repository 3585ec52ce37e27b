package dev.jetsink.event;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.internal.event.EventAccess;
import dev.jetsink.internal.event.Fields;
import dev.jetsink.internal.event.JsonBody;
import dev.jetsink.internal.event.KeyEncoding;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One S3 event record, as found in the {@code Records} array of a store's webhook body.
 *
 * <p>The JSON tree is the source of truth: every field the store sent, known or not, is kept in
 * its order and published unchanged in the envelope's {@code data}. The accessors cover only the
 * fields jetsink itself needs. Required: {@code eventName}, {@code s3.bucket.name},
 * {@code s3.object.key} (non-empty strings). Instances are immutable: the tree is copied on the
 * way in and on the way out.
 */
public final class S3EventRecord {
    private static final DateTimeFormatter EVENT_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    static {
        EventAccess.install(S3EventRecord::tree, AuditEntry::tree, S3EventRecord::adopt, AuditEntry::adopt);
    }

    private final ObjectNode tree;
    private final String eventName;
    private final String bucketName;
    private final String objectKey;
    private final String decodedObjectKey;
    private final Optional<String> contentType;

    private S3EventRecord(ObjectNode tree) throws MalformedEventException {
        this.tree = tree;
        this.eventName = Fields.requiredString(tree, "eventName");
        Fields.requiredObject(tree, "s3");
        Fields.requiredObject(tree, "s3.bucket");
        this.bucketName = Fields.requiredString(tree, "s3.bucket.name");
        Fields.requiredObject(tree, "s3.object");
        this.objectKey = Fields.requiredString(tree, "s3.object.key");
        this.decodedObjectKey = KeyEncoding.of(tree).decode(objectKey);
        this.contentType = Fields.string(tree, "s3.object.contentType");
    }

    /**
     * A record from a JSON tree (copied), checked for the required fields.
     *
     * @param record the record as a store sent it
     * @return the record
     * @throws MalformedEventException when a required field is missing, empty or of the wrong type
     */
    public static S3EventRecord of(ObjectNode record) throws MalformedEventException {
        return new S3EventRecord(Objects.requireNonNull(record, "record").deepCopy());
    }

    /* The parser owns the trees it builds, so it hands them over without a copy. */
    static S3EventRecord adopt(ObjectNode record) throws MalformedEventException {
        return new S3EventRecord(record);
    }

    /**
     * Starts a record for an embedding store that has no JSON at hand.
     *
     * <p>A record built without {@link Builder#eventTime} or {@link Builder#sequencer} gets both
     * at {@link Builder#build()}: the current time, and a sequencer that increases with every
     * record built in this JVM (hexadecimal, from the clock's nanoseconds, as stores write it).
     * The default msg ids are derived from a record's content, so without them two real writes
     * of the same key and size within the duplicate window would be stored as one message.
     * Sending the same built record twice still sends the same content: the stream keeps it once.
     *
     * @param eventName e.g. {@code s3:ObjectCreated:Put}
     * @param bucket    bucket name
     * @param objectKey the object key as stored (decoded); the record carries it form-encoded, or
     *                  unchanged when the event source is Ceph RGW's {@code ceph:s3}, as those stores send it
     * @return a builder
     */
    public static Builder builder(String eventName, String bucket, String objectKey) {
        return new Builder(eventName, bucket, objectKey);
    }

    /**
     * e.g. {@code s3:ObjectCreated:Put}.
     *
     * @return the event name
     */
    public String eventName() {
        return eventName;
    }

    /**
     * {@code s3.bucket.name}.
     *
     * @return the bucket name
     */
    public String bucketName() {
        return bucketName;
    }

    /**
     * {@code s3.object.key} exactly as in the record: form-encoded ({@code my+photo.jpg}) from
     * MinIO, RustFS and AWS, the key as stored from Ceph RGW.
     *
     * @return the key as the record writes it
     */
    public String objectKey() {
        return objectKey;
    }

    /**
     * The object key as stored in the bucket ({@code my photo.jpg}). A record whose
     * {@code eventSource} is {@code ceph:s3} carries the key unencoded, so it is taken as it is;
     * any other record's key is form-decoded, or taken as it is when its encoding is malformed.
     *
     * @return the key as stored
     */
    public String decodedObjectKey() {
        return decodedObjectKey;
    }

    /**
     * {@code s3.object.contentType}; absent on delete events.
     *
     * @return the content type, when present
     */
    public Optional<String> contentType() {
        return contentType;
    }

    /**
     * A copy of the whole record, unknown fields included.
     *
     * @return a deep copy of the JSON
     */
    public ObjectNode json() {
        return tree.deepCopy();
    }

    ObjectNode tree() {
        return tree;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof S3EventRecord other && tree.equals(other.tree);
    }

    @Override
    public int hashCode() {
        return tree.hashCode();
    }

    @Override
    public String toString() {
        return "S3EventRecord[" + eventName + " " + bucketName + "/" + decodedObjectKey + "]";
    }

    /**
     * Builds a record in the layout RustFS sends (eventVersion 2.1, s3SchemaVersion 1.0).
     * Only fields that were set appear (an event time and a sequencer always do), so a delete
     * carries no size or eTag. The key is written
     * the way a record of the chosen {@code eventSource} carries it (form-encoded unless
     * {@code ceph:s3}), so the built record reads back with the key it was given.
     */
    public static final class Builder {
        private static final AtomicLong LAST_SEQUENCER = new AtomicLong();
        private final String eventName;
        private final String bucket;
        private final String objectKey;
        private String eventSource = "";
        private String awsRegion = "";
        private Instant eventTime;
        private String principalId = "";
        private Long size;
        private String eTag = "";
        private String contentType = "";
        private String versionId = "";
        private String sequencer = "";
        private final Map<String, String> userMetadata = new LinkedHashMap<>();
        private final Map<String, JsonNode> extra = new LinkedHashMap<>();

        private Builder(String eventName, String bucket, String objectKey) {
            this.eventName = Objects.requireNonNull(eventName, "eventName");
            this.bucket = Objects.requireNonNull(bucket, "bucket");
            this.objectKey = Objects.requireNonNull(objectKey, "objectKey");
        }

        /**
         * e.g. {@code rustfs:s3}.
         *
         * @param value the source
         * @return this builder
         */
        public Builder eventSource(String value) {
            eventSource = Objects.requireNonNull(value);
            return this;
        }

        /**
         * {@code awsRegion}.
         *
         * @param value the region
         * @return this builder
         */
        public Builder awsRegion(String value) {
            awsRegion = Objects.requireNonNull(value);
            return this;
        }

        /**
         * Written as RFC 3339 UTC with milliseconds, as stores do; the time of {@link #build()} when not set.
         *
         * @param value when the event happened
         * @return this builder
         */
        public Builder eventTime(Instant value) {
            eventTime = Objects.requireNonNull(value);
            return this;
        }

        /**
         * {@code userIdentity.principalId}.
         *
         * @param value the principal
         * @return this builder
         */
        public Builder principalId(String value) {
            principalId = Objects.requireNonNull(value);
            return this;
        }

        /**
         * {@code s3.object.size}.
         *
         * @param value the size in bytes
         * @return this builder
         */
        public Builder size(long value) {
            size = value;
            return this;
        }

        /**
         * {@code s3.object.eTag}.
         *
         * @param value the ETag
         * @return this builder
         */
        public Builder eTag(String value) {
            eTag = Objects.requireNonNull(value);
            return this;
        }

        /**
         * {@code s3.object.contentType}.
         *
         * @param value the content type
         * @return this builder
         */
        public Builder contentType(String value) {
            contentType = Objects.requireNonNull(value);
            return this;
        }

        /**
         * {@code s3.object.versionId}.
         *
         * @param value the version id
         * @return this builder
         */
        public Builder versionId(String value) {
            versionId = Objects.requireNonNull(value);
            return this;
        }

        /**
         * {@code s3.object.sequencer}; an increasing one is made at {@link #build()} when not set.
         *
         * @param value the sequencer
         * @return this builder
         */
        public Builder sequencer(String value) {
            sequencer = Objects.requireNonNull(value);
            return this;
        }

        /**
         * One entry of {@code s3.object.userMetadata}.
         *
         * @param name  the metadata name, e.g. {@code X-Amz-Meta-Owner}
         * @param value its value
         * @return this builder
         */
        public Builder userMetadata(String name, String value) {
            userMetadata.put(Objects.requireNonNull(name), Objects.requireNonNull(value));
            return this;
        }

        /**
         * Any other top-level field, appended after the standard ones (the value is copied).
         *
         * @param name the field name
         * @param value its value
         * @return this builder
         */
        public Builder field(String name, JsonNode value) {
            extra.put(Objects.requireNonNull(name), Objects.requireNonNull(value).deepCopy());
            return this;
        }

        /**
         * The record, in the layout stores send.
         *
         * @return the record
         * @throws IllegalArgumentException when the event name, bucket or key is empty
         */
        public S3EventRecord build() {
            JsonNodeFactory f = Json.NODES;
            ObjectNode r = f.objectNode();
            r.put("eventVersion", "2.1");
            putIfSet(r, "eventSource", eventSource);
            putIfSet(r, "awsRegion", awsRegion);
            r.put("eventTime", EVENT_TIME.format(eventTime != null ? eventTime : Instant.now()));
            r.put("eventName", eventName);
            if (!principalId.isEmpty()) {
                r.putObject("userIdentity").put("principalId", principalId);
            }
            ObjectNode s3 = r.putObject("s3");
            s3.put("s3SchemaVersion", "1.0");
            ObjectNode b = s3.putObject("bucket");
            b.put("name", bucket);
            b.put("arn", "arn:aws:s3:::" + bucket);
            ObjectNode o = s3.putObject("object");
            o.put("key", KeyEncoding.ofSource(eventSource).encode(objectKey));
            if (size != null) {
                o.put("size", size.longValue());
            }
            putIfSet(o, "eTag", eTag);
            putIfSet(o, "contentType", contentType);
            if (!userMetadata.isEmpty()) {
                ObjectNode meta = o.putObject("userMetadata");
                userMetadata.forEach(meta::put);
            }
            putIfSet(o, "versionId", versionId);
            o.put("sequencer", sequencer.isEmpty() ? nextSequencer() : sequencer);
            extra.forEach(r::set);
            try {
                return new S3EventRecord(r);
            } catch (MalformedEventException e) {
                throw new IllegalArgumentException(e.getMessage());
            }
        }

        /** Increasing within this JVM and, being clock-based, across restarts of it. */
        private static String nextSequencer() {
            long now = TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis());
            return String.format(Locale.ROOT, "%016X", LAST_SEQUENCER.updateAndGet(last -> Math.max(last + 1, now)));
        }

        private static void putIfSet(ObjectNode node, String name, String value) {
            if (!value.isEmpty()) {
                node.put(name, value);
            }
        }
    }
}

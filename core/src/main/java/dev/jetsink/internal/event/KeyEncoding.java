package dev.jetsink.internal.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;

/**
 * How an S3 event record writes its {@code s3.object.key}, told from the record itself.
 *
 * <p>MinIO, RustFS and AWS form-encode the key ({@code my photo.jpg} is sent as
 * {@code my+photo.jpg}); Ceph RGW writes the key exactly as stored, so a Ceph key
 * {@code a+b.txt} means a plus sign, not a space. The record names its sender in
 * {@code eventSource}, and Ceph RGW always writes {@code ceph:s3} there; every other value, and
 * a record without one, is taken as form-encoded, which is what every other known sender does and
 * what {@code S3EventRecord.Builder} writes.
 */
public enum KeyEncoding {
    /** Form encoding: {@code +} for space, {@code %XX} for other reserved UTF-8 bytes. */
    FORM,
    /** The key as stored in the bucket (Ceph RGW). */
    NONE;

    /** The {@code eventSource} Ceph RGW writes in every record it sends. */
    public static final String CEPH_EVENT_SOURCE = "ceph:s3";

    /** The encoding of the key in {@code record}, by its {@code eventSource}. */
    public static KeyEncoding of(ObjectNode record) {
        JsonNode source = record.get("eventSource");
        return source != null && source.isTextual() ? ofSource(source.textValue()) : FORM;
    }

    /** The encoding a record with this {@code eventSource} uses. */
    public static KeyEncoding ofSource(String eventSource) {
        return CEPH_EVENT_SOURCE.equals(eventSource.trim().toLowerCase(Locale.ROOT)) ? NONE : FORM;
    }

    /** The key as stored in the bucket, from the key as the record writes it. */
    public String decode(String keyInRecord) {
        return this == FORM ? ObjectKeys.decode(keyInRecord) : keyInRecord;
    }

    /** The key as a record of this encoding writes it, from the key as stored. */
    public String encode(String storedKey) {
        return this == FORM ? ObjectKeys.encode(storedKey) : storedKey;
    }
}

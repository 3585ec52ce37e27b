package dev.jetsink.internal.event;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.event.AuditEntry;
import dev.jetsink.event.MalformedEventException;
import dev.jetsink.event.S3EventRecord;
import java.util.Objects;
import java.util.function.Function;

/**
 * jetsink's own way into the public event types: their JSON tree without the defensive copy the
 * public accessors make, and construction from a tree the parser owns. The public API stays
 * immutable; the hot path (parse, envelope, msg id) copies nothing. The event package installs
 * its four functions when {@link S3EventRecord} is loaded (no class of the public package extends
 * or names this one in its signatures).
 */
public final class EventAccess {

    /** Makes an event from a tree nobody else holds. */
    @FunctionalInterface
    public interface Adopter<T> {
        T adopt(ObjectNode tree) throws MalformedEventException;
    }

    private record Functions(Function<S3EventRecord, ObjectNode> recordTree, Function<AuditEntry, ObjectNode> entryTree,
                             Adopter<S3EventRecord> adoptRecord, Adopter<AuditEntry> adoptEntry) {
    }

    private static volatile Functions installed;

    private EventAccess() {
    }

    /** Called once, by the event package; a second call is refused. */
    public static synchronized void install(Function<S3EventRecord, ObjectNode> recordTree,
                                            Function<AuditEntry, ObjectNode> entryTree,
                                            Adopter<S3EventRecord> adoptRecord, Adopter<AuditEntry> adoptEntry) {
        if (installed != null) {
            throw new IllegalStateException("event access is already installed");
        }
        installed = new Functions(Objects.requireNonNull(recordTree), Objects.requireNonNull(entryTree),
            Objects.requireNonNull(adoptRecord), Objects.requireNonNull(adoptEntry));
    }

    private static Functions get() {
        Functions access = installed;
        if (access == null) {
            try {
                Class.forName(S3EventRecord.class.getName(), true, S3EventRecord.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            access = installed;
        }
        return access;
    }

    /** The record's tree itself: callers only read it. */
    public static ObjectNode tree(S3EventRecord record) {
        return get().recordTree().apply(record);
    }

    /** The entry's (redacted) tree itself: callers only read it. */
    public static ObjectNode tree(AuditEntry entry) {
        return get().entryTree().apply(entry);
    }

    /** A record made from a tree nobody else holds, without a copy. */
    public static S3EventRecord adoptRecord(ObjectNode record) throws MalformedEventException {
        return get().adoptRecord().adopt(record);
    }

    /** An entry made from a tree nobody else holds, without a copy. */
    public static AuditEntry adoptEntry(ObjectNode entry) throws MalformedEventException {
        return get().adoptEntry().adopt(entry);
    }
}

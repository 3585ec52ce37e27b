package dev.jetsink.internal.event;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.event.AuditEntry;
import dev.jetsink.event.MalformedEventException;
import dev.jetsink.event.S3EventRecord;

/**
 * jetsink's own way into the public event types: their JSON tree without the defensive copy the
 * public accessors make, and construction from a tree the parser owns. The public API stays
 * immutable; the hot path (parse, envelope, msg id) copies nothing. The event package installs
 * the one implementation when {@link S3EventRecord} is loaded.
 */
public abstract class EventAccess {
    private static volatile EventAccess installed;

    protected EventAccess() {
    }

    /** Called once, by the event package; a second call is refused. */
    public static synchronized void install(EventAccess access) {
        if (installed != null) {
            throw new IllegalStateException("event access is already installed");
        }
        installed = access;
    }

    static EventAccess get() {
        EventAccess access = installed;
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
        return get().treeOf(record);
    }

    /** The entry's (redacted) tree itself: callers only read it. */
    public static ObjectNode tree(AuditEntry entry) {
        return get().treeOf(entry);
    }

    /** A record made from a tree nobody else holds, without a copy. */
    public static S3EventRecord adoptRecord(ObjectNode record) throws MalformedEventException {
        return get().recordOf(record);
    }

    /** An entry made from a tree nobody else holds, without a copy. */
    public static AuditEntry adoptEntry(ObjectNode entry) throws MalformedEventException {
        return get().entryOf(entry);
    }

    protected abstract ObjectNode treeOf(S3EventRecord record);

    protected abstract ObjectNode treeOf(AuditEntry entry);

    protected abstract S3EventRecord recordOf(ObjectNode record) throws MalformedEventException;

    protected abstract AuditEntry entryOf(ObjectNode entry) throws MalformedEventException;
}

package dev.jetsink.event;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.internal.event.EventAccess;

/* The one EventAccess: S3EventRecord installs it when it is loaded. */
final class Trees extends EventAccess {

    @Override
    protected ObjectNode treeOf(S3EventRecord record) {
        return record.tree();
    }

    @Override
    protected ObjectNode treeOf(AuditEntry entry) {
        return entry.tree();
    }

    @Override
    protected S3EventRecord recordOf(ObjectNode record) throws MalformedEventException {
        return S3EventRecord.adopt(record);
    }

    @Override
    protected AuditEntry entryOf(ObjectNode entry) throws MalformedEventException {
        return AuditEntry.adopt(entry);
    }
}

package dev.jetsink.internal.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.event.AuditEntry;
import dev.jetsink.event.MalformedEventException;
import dev.jetsink.event.S3EventRecord;
import dev.jetsink.internal.config.TargetKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Turns a request body into the events to queue (DESIGN.md "Events"), one parser per target kind.
 *
 * <p>Notify bodies: the webhook form {@code {"EventName","Key","Records":[..]}} (one envelope
 * per record; the top-level {@code EventName} and {@code Key} are ignored and rebuilt from each
 * record) or one bare S3 event record. Audit bodies: one entry, a JSON array of entries, or
 * entries separated by newlines (NDJSON). Bodies must be UTF-8, at most
 * {@value #MAX_EVENT_BODY_BYTES} bytes, nested at most 64 levels deep.
 *
 * <p>All or nothing: if any record or entry is malformed, {@link #parse} throws and returns no
 * events. Error messages name the place: {@code record 2: s3.bucket.name is required},
 * {@code entry 3: api must be an object}, {@code line 3: not valid JSON at column 17}. Records
 * and entries are numbered from 1. Thread-safe.
 */
public final class EventParser {
    /** Largest body accepted (4 MiB), the same bound the HTTP ingest answers 413 above. */
    public static final int MAX_EVENT_BODY_BYTES = JsonBody.MAX_EVENT_BODY_BYTES;

    private static final EventParser NOTIFY = new EventParser(TargetKind.NOTIFY);
    private static final EventParser AUDIT = new EventParser(TargetKind.AUDIT);

    private final TargetKind kind;

    private EventParser(TargetKind kind) {
        this.kind = kind;
    }

    /** The parser for bodies sent to targets of {@code kind}. */
    public static EventParser forKind(TargetKind kind) {
        return Objects.requireNonNull(kind, "kind") == TargetKind.NOTIFY ? NOTIFY : AUDIT;
    }

    public TargetKind kind() {
        return kind;
    }

    /**
     * The envelopes of every record or entry in {@code body}, in body order; never empty.
     *
     * @throws MalformedEventException when anything in the body is malformed (nothing returned)
     */
    public List<OutboundEvent> parse(byte[] body) throws MalformedEventException {
        Objects.requireNonNull(body, "body");
        List<OutboundEvent> events = OnePass.events(kind, body);
        return events != null ? List.copyOf(events) : parseTree(body);
    }

    /**
     * What {@link #parse} answers, by way of a tree per record: the definition the one pass
     * ({@link OnePass}) is held to, and the path of every body that pass leaves to it. Public for
     * the benchmark that sets the two side by side.
     */
    public List<OutboundEvent> parseTree(byte[] body) throws MalformedEventException {
        List<OutboundEvent> events = new ArrayList<>();
        // Each record's tree is turned into its envelope at once and dropped (BodyStream).
        if (kind == TargetKind.NOTIFY) {
            BodyStream.notifyRecords(body, (value, n) -> events.add(Envelopes.notify(checkedRecord(value, n))));
        } else {
            BodyStream.auditEntries(body, (value, n) -> events.add(Envelopes.audit(checkedEntry(value, n))));
        }
        return List.copyOf(events);
    }

    /** The S3 event records of a notify body; never empty. */
    public static List<S3EventRecord> records(byte[] body) throws MalformedEventException {
        List<S3EventRecord> records = new ArrayList<>();
        BodyStream.notifyRecords(body, (value, n) -> records.add(checkedRecord(value, n)));
        return List.copyOf(records);
    }

    /** The entries of an audit body, credentials already redacted; never empty. */
    public static List<AuditEntry> entries(byte[] body) throws MalformedEventException {
        List<AuditEntry> entries = new ArrayList<>();
        BodyStream.auditEntries(body, (value, n) -> entries.add(checkedEntry(value, n)));
        return List.copyOf(entries);
    }

    private static AuditEntry checkedEntry(JsonNode value, int number) throws MalformedEventException {
        if (!value.isObject()) {
            throw new MalformedEventException("entry " + number + ": must be a JSON object");
        }
        try {
            return EventAccess.adoptEntry((ObjectNode) value);
        } catch (MalformedEventException e) {
            throw e.within("entry " + number);
        }
    }

    private static S3EventRecord checkedRecord(JsonNode value, int number) throws MalformedEventException {
        if (!value.isObject()) {
            throw new MalformedEventException("record " + number + ": must be a JSON object");
        }
        try {
            return EventAccess.adoptRecord((ObjectNode) value);
        } catch (MalformedEventException e) {
            throw e.within("record " + number);
        }
    }
}

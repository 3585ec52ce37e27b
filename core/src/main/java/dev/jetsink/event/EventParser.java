package dev.jetsink.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.config.TargetKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Turns a request body into the events to queue (SPEC §3.1), one parser per target kind.
 *
 * <p>Notify bodies: the webhook form {@code {"EventName","Key","Records":[..]}} (one envelope
 * per record; the top-level {@code EventName} and {@code Key} are ignored and rebuilt from each
 * record) or one bare S3 event record. Audit bodies: one entry, a JSON array of entries, or
 * entries separated by newlines (NDJSON). Bodies must be UTF-8, at most
 * {@value #MAX_BODY_BYTES} bytes, nested at most 64 levels deep.
 *
 * <p>All or nothing: if any record or entry is malformed, {@link #parse} throws and returns no
 * events. Error messages name the place: {@code record 2: s3.bucket.name is required},
 * {@code entry 3: api must be an object}, {@code line 3: not valid JSON at column 17}. Records
 * and entries are numbered from 1. Thread-safe.
 */
public final class EventParser {
    /** Largest body accepted (4 MiB), the same bound the HTTP ingest answers 413 above. */
    public static final int MAX_BODY_BYTES = JsonBody.MAX_BODY_BYTES;

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
        List<OutboundEvent> events = new ArrayList<>();
        if (kind == TargetKind.NOTIFY) {
            for (S3EventRecord record : records(body)) {
                events.add(Envelopes.notify(record));
            }
        } else {
            for (AuditEntry entry : entries(body)) {
                events.add(Envelopes.audit(entry));
            }
        }
        return List.copyOf(events);
    }

    /** The S3 event records of a notify body; never empty. */
    public static List<S3EventRecord> records(byte[] body) throws MalformedEventException {
        JsonNode root = single(JsonBody.roots(body));
        if (!root.isObject()) {
            throw new MalformedEventException("body must be a JSON object");
        }
        if (!root.has("Records")) {
            return List.of(checkedRecord(root, 1));
        }
        JsonNode array = root.get("Records");
        if (!array.isArray()) {
            throw new MalformedEventException("Records must be an array");
        }
        if (array.isEmpty()) {
            throw new MalformedEventException("Records must hold at least one record");
        }
        List<S3EventRecord> records = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            records.add(checkedRecord(array.get(i), i + 1));
        }
        return List.copyOf(records);
    }

    /** The entries of an audit body, credentials already redacted; never empty. */
    public static List<AuditEntry> entries(byte[] body) throws MalformedEventException {
        List<JsonBody.Root> roots = JsonBody.roots(body);
        if (roots.isEmpty()) {
            throw new MalformedEventException("body is empty");
        }
        List<JsonNode> values = new ArrayList<>();
        JsonNode first = roots.get(0).node();
        if (first.isArray()) {
            if (roots.size() > 1) {
                throw new MalformedEventException("line " + roots.get(1).line()
                        + ": nothing may follow a JSON array of entries");
            }
            first.forEach(values::add);
            if (values.isEmpty()) {
                throw new MalformedEventException("body is an empty array: no entries");
            }
        } else {
            for (JsonBody.Root r : roots) {
                if (isRecordsWrapper(r.node())) {
                    r.node().get("Records").forEach(values::add);
                } else {
                    values.add(r.node());
                }
            }
            if (values.isEmpty()) {
                throw new MalformedEventException("Records must hold at least one entry");
            }
        }
        List<AuditEntry> entries = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            JsonNode value = values.get(i);
            if (!value.isObject()) {
                throw new MalformedEventException("entry " + (i + 1) + ": must be a JSON object");
            }
            try {
                entries.add(AuditEntry.adopt((ObjectNode) value));
            } catch (MalformedEventException e) {
                throw e.within("entry " + (i + 1));
            }
        }
        return List.copyOf(entries);
    }

    /**
     * RustFS posts audit entries in the notify webhook's envelope,
     * {@code {"EventName","Key","Records":[entry]}} (FORMATS.md, "Senders"); an audit entry itself
     * has no {@code Records} array.
     */
    private static boolean isRecordsWrapper(JsonNode node) {
        return node.isObject() && node.path("Records").isArray() && !node.has("api");
    }

    private static JsonNode single(List<JsonBody.Root> roots) throws MalformedEventException {
        if (roots.isEmpty()) {
            throw new MalformedEventException("body is empty");
        }
        if (roots.size() > 1) {
            throw new MalformedEventException("line " + roots.get(1).line()
                    + ": a notify body holds one JSON object, found another value");
        }
        return roots.get(0).node();
    }

    private static S3EventRecord checkedRecord(JsonNode value, int number) throws MalformedEventException {
        if (!value.isObject()) {
            throw new MalformedEventException("record " + number + ": must be a JSON object");
        }
        try {
            return S3EventRecord.adopt((ObjectNode) value);
        } catch (MalformedEventException e) {
            throw e.within("record " + number);
        }
    }
}

package dev.jetsink.server.admin;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.internal.failed.FailedReplay;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The JSON of failed-record replay and purge, one shape for the admin API and the CLI
 * that talks to it: the request {@code {"since","until","reason","limit","dry_run"}} (every field
 * optional; instants in RFC 3339) and the report the answer carries.
 */
public final class ReplayJson {

    private static final Set<String> FIELDS = Set.of("since", "until", "reason", "limit", "dry_run");

    private ReplayJson() {
    }

    /** A replay or purge request: which records, and whether to change anything. */
    public record Request(FailedReplay.Filter filter, boolean dryRun) {
    }

    /**
     * Parses a request body; an empty body means every record, for real.
     *
     * @throws IllegalArgumentException naming the field at fault (unknown fields are refused, so a
     *                                  typo cannot widen a replay to every record)
     */
    public static Request parse(byte[] body) {
        if (body.length == 0) {
            return new Request(FailedReplay.Filter.ALL, false);
        }
        JsonNode root;
        try {
            root = Json.READER.readTree(body);
        } catch (IOException e) {
            throw new IllegalArgumentException("body is not JSON");
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("body must be a JSON object with since, until, reason, limit, dry_run");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!FIELDS.contains(name)) {
                throw new IllegalArgumentException("unknown field " + name + " (known: since, until, reason, limit, dry_run)");
            }
        }
        OptionalInt limit = OptionalInt.empty();
        if (root.has("limit")) {
            if (!root.get("limit").canConvertToInt() || !root.get("limit").isIntegralNumber()) {
                throw new IllegalArgumentException("limit must be a whole number");
            }
            limit = OptionalInt.of(root.get("limit").intValue());
        }
        if (root.has("dry_run") && !root.get("dry_run").isBoolean()) {
            throw new IllegalArgumentException("dry_run must be true or false");
        }
        if (root.has("reason") && !root.get("reason").isTextual()) {
            throw new IllegalArgumentException("reason must be a string");
        }
        FailedReplay.Filter filter = new FailedReplay.Filter(instant(root, "since"), instant(root, "until"),
            Optional.ofNullable(root.get("reason")).map(JsonNode::asText).filter(s -> !s.isEmpty()), limit);
        return new Request(filter, root.path("dry_run").asBoolean(false));
    }

    private static Optional<Instant> instant(JsonNode root, String field) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(v.asText()));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(field + " must be an RFC 3339 instant such as 2026-12-03T10:00:00Z");
        }
    }

    /** The body that asks for {@code request}. */
    public static byte[] body(Request request) {
        ObjectNode n = Json.object();
        FailedReplay.Filter f = request.filter();
        f.since().ifPresent(t -> n.put("since", t.toString()));
        f.until().ifPresent(t -> n.put("until", t.toString()));
        f.reason().ifPresent(r -> n.put("reason", r));
        f.limit().ifPresent(l -> n.put("limit", l));
        n.put("dry_run", request.dryRun());
        try {
            return Json.WRITER.writeValueAsBytes(n);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The answer's body: the target, the action and the report. */
    public static ObjectNode report(String target, String action, FailedReplay.Report r) {
        ObjectNode n = Json.object();
        n.put("target", target);
        n.put("action", action);
        n.put("dry_run", r.dryRun());
        n.put("matched", r.matched());
        n.put("done", r.done());
        r.stopped().ifPresent(s -> n.put("stopped", s));
        ArrayNode problems = n.putArray("problems");
        r.problems().forEach(problems::add);
        ArrayNode items = n.putArray("records");
        for (FailedReplay.Item i : r.items()) {
            ObjectNode o = items.addObject();
            o.put("file", i.file());
            o.put("nats_msg_id", i.msgId());
            o.put("failed_at", i.failedAt().toString());
            o.put("bucket", i.bucket());
            o.put("object", i.object());
            o.put("event_name", i.eventName());
            o.put("error_detail", i.errorDetail());
            o.put("replays", i.replays());
        }
        return n;
    }

    /** A report read back from an answer's body (the CLI renders it like a local one). */
    public static FailedReplay.Report readReport(JsonNode n) {
        List<FailedReplay.Item> items = new ArrayList<>();
        for (JsonNode o : n.path("records")) {
            items.add(new FailedReplay.Item(o.path("file").asText(), o.path("nats_msg_id").asText(),
                Instant.parse(o.path("failed_at").asText()), o.path("bucket").asText(), o.path("object").asText(),
                o.path("event_name").asText(), o.path("error_detail").asText(), o.path("replays").asInt()));
        }
        List<String> problems = new ArrayList<>();
        n.path("problems").forEach(p -> problems.add(p.asText()));
        return new FailedReplay.Report(n.path("dry_run").asBoolean(), n.path("matched").asInt(), n.path("done").asInt(),
            items, problems, Optional.ofNullable(n.get("stopped")).map(JsonNode::asText));
    }
}

package dev.jetsink.event;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.internal.event.Fields;
import dev.jetsink.internal.event.JsonBody;
import dev.jetsink.internal.event.Redaction;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One audit log entry, as a store POSTs it to an audit webhook.
 *
 * <p>The JSON tree is the source of truth and every field survives into the envelope's
 * {@code data}, except credentials: {@code Authorization}, {@code Proxy-Authorization},
 * {@code X-Amz-Security-Token}, {@code Cookie} and {@code Set-Cookie} in {@code requestHeader}
 * and {@code responseHeader}, and {@code X-Amz-Security-Token} / {@code X-Amz-Signature} in
 * {@code requestQuery}, are replaced by {@code ***} when the entry is created, so no instance
 * ever holds them. Nothing is required beyond being a JSON object; when present, {@code api}
 * and the header maps must be objects and {@code api.name}, {@code api.bucket},
 * {@code api.object} and {@code event} strings. Immutable: the tree is copied in and out.
 */
public final class AuditEntry {
    private final ObjectNode tree;
    private final Optional<String> apiName;
    private final Optional<String> apiBucket;
    private final Optional<String> apiObject;
    private final Optional<String> event;
    private final Map<String, String> requestHeader;

    private AuditEntry(ObjectNode tree) throws MalformedEventException {
        this.tree = tree;
        Fields.object(tree, "api");
        this.apiName = Fields.string(tree, "api.name");
        this.apiBucket = Fields.string(tree, "api.bucket");
        this.apiObject = Fields.string(tree, "api.object");
        this.event = Fields.string(tree, "event");
        Optional<ObjectNode> headers = Fields.object(tree, "requestHeader");
        Fields.object(tree, "responseHeader");
        Fields.object(tree, "requestQuery");
        Redaction.apply(tree);
        this.requestHeader = headers.map(AuditEntry::stringValues).orElse(Map.of());
    }

    /**
     * An entry from a JSON tree (copied, then redacted), type-checked as described above.
     *
     * @param entry the entry as a store sent it
     * @return the entry
     * @throws MalformedEventException when a field jetsink reads has the wrong type
     */
    public static AuditEntry of(ObjectNode entry) throws MalformedEventException {
        return new AuditEntry(Objects.requireNonNull(entry, "entry").deepCopy());
    }

    /* The parser owns the trees it builds, so it hands them over without a copy. */
    static AuditEntry adopt(ObjectNode entry) throws MalformedEventException {
        return new AuditEntry(entry);
    }

    /**
     * Starts an entry for an embedding store; {@code apiName} is e.g. {@code PutObject}.
     *
     * @param apiName the API called
     * @return a builder
     */
    public static Builder builder(String apiName) {
        return new Builder(apiName);
    }

    /**
     * {@code api.name}, e.g. {@code PutObject}.
     *
     * @return the API name, when present
     */
    public Optional<String> apiName() {
        return apiName;
    }

    /**
     * {@code api.bucket}; absent for calls that name no bucket (ListBuckets).
     *
     * @return the bucket, when present
     */
    public Optional<String> apiBucket() {
        return apiBucket;
    }

    /**
     * {@code api.object}.
     *
     * @return the object key, when present
     */
    public Optional<String> apiObject() {
        return apiObject;
    }

    /**
     * The entry's {@code event}.
     *
     * @return the event, when present
     */
    public Optional<String> event() {
        return event;
    }

    /**
     * String-valued {@code requestHeader} fields, credentials already masked; read-only.
     *
     * @return the headers by name
     */
    public Map<String, String> requestHeader() {
        return requestHeader;
    }

    /**
     * A copy of the whole (redacted) entry, unknown fields included.
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
        return o instanceof AuditEntry other && tree.equals(other.tree);
    }

    @Override
    public int hashCode() {
        return tree.hashCode();
    }

    @Override
    public String toString() {
        return "AuditEntry[" + event.orElse("") + " " + apiName.orElse("") + " "
                + apiBucket.orElse("") + "/" + apiObject.orElse("") + "]";
    }

    private static Map<String, String> stringValues(ObjectNode headers) {
        Map<String, String> values = new LinkedHashMap<>();
        headers.properties().forEach(f -> {
            if (f.getValue().isTextual()) {
                values.put(f.getKey(), f.getValue().textValue());
            }
        });
        return Collections.unmodifiableMap(values);
    }

    /** Builds an entry in the layout stores send ({@code version} "1"); unset fields are left out. */
    public static final class Builder {
        private final ObjectNode tree = Json.object();

        private Builder(String apiName) {
            tree.put("version", "1");
            // Set now so api keeps its place near the top, as in what stores send.
            tree.putObject("api").put("name", Objects.requireNonNull(apiName, "apiName"));
        }

        /**
         * Any top-level field, e.g. {@code time}, {@code deploymentid}, {@code requestID} (copied).
         *
         * @param name the field name
         * @param value its value
         * @return this builder
         */
        public Builder field(String name, JsonNode value) {
            tree.set(Objects.requireNonNull(name), Objects.requireNonNull(value).deepCopy());
            return this;
        }

        /**
         * A top-level string field, e.g. {@code event}, {@code remotehost}, {@code accessKey}.
         *
         * @param name the field name
         * @param value its value
         * @return this builder
         */
        public Builder field(String name, String value) {
            tree.put(Objects.requireNonNull(name), Objects.requireNonNull(value));
            return this;
        }

        /**
         * The entry's {@code event}, e.g. {@code s3:PutObject}.
         *
         * @param value the event
         * @return this builder
         */
        public Builder event(String value) {
            return field("event", value);
        }

        /**
         * {@code api.bucket}.
         *
         * @param value the bucket
         * @return this builder
         */
        public Builder bucket(String value) {
            api().put("bucket", Objects.requireNonNull(value));
            return this;
        }

        /**
         * {@code api.object}.
         *
         * @param value the object key
         * @return this builder
         */
        public Builder object(String value) {
            api().put("object", Objects.requireNonNull(value));
            return this;
        }

        /**
         * {@code api.status} and {@code api.statusCode}.
         *
         * @param status     e.g. {@code OK}
         * @param statusCode e.g. {@code 200}
         * @return this builder
         */
        public Builder status(String status, int statusCode) {
            api().put("status", Objects.requireNonNull(status));
            api().put("statusCode", statusCode);
            return this;
        }

        /**
         * One {@code requestHeader} field; credentials are masked when the entry is built.
         *
         * @param name  the header name
         * @param value its value
         * @return this builder
         */
        public Builder requestHeader(String name, String value) {
            header("requestHeader", name, value);
            return this;
        }

        /**
         * One {@code responseHeader} field.
         *
         * @param name  the header name
         * @param value its value
         * @return this builder
         */
        public Builder responseHeader(String name, String value) {
            header("responseHeader", name, value);
            return this;
        }

        /**
         * The entry, redacted like one a store sent, with a {@code time} of now when none was set
         * (so two entries built alike have distinct content msg ids).
         *
         * @return the entry
         * @throws IllegalArgumentException when a field set through {@link #field} has the wrong type
         */
        public AuditEntry build() {
            ObjectNode entry = tree.deepCopy();
            if (!entry.has("time")) {
                entry.put("time", Instant.now().toString());
            }
            try {
                return new AuditEntry(entry);
            } catch (MalformedEventException e) {
                throw new IllegalArgumentException(e.getMessage());
            }
        }

        /* field("api", ..) may have replaced the api object; setters write into whichever is current. */
        private ObjectNode api() {
            JsonNode current = tree.get("api");
            return current instanceof ObjectNode o ? o : tree.putObject("api");
        }

        private void header(String map, String name, String value) {
            JsonNode existing = tree.get(map);
            ObjectNode headers = existing instanceof ObjectNode o ? o : tree.putObject(map);
            headers.put(Objects.requireNonNull(name), Objects.requireNonNull(value));
        }
    }
}

package dev.jetsink.server.ingest;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.event.MalformedEventException;
import dev.jetsink.internal.event.CloudEventAttributes;
import dev.jetsink.internal.event.JsonBody;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;

/**
 * A request that is a CloudEvent over HTTP, in the binding's binary mode (Ceph RGW's
 * {@code cloudevents=true} sends its S3 body with {@code ce-} headers) or structured mode
 * ({@code Content-Type: application/cloudevents+json}, the event's {@code data} holding the S3
 * body or audit entry). Its attributes are kept with every event of the body; an ordinary request
 * has none (a request is binary mode only with {@code ce-specversion}: without it, other
 * {@code ce-} headers are left alone, as before). Batched mode is refused: each POST is one event.
 *
 * @param attributes the sender's CloudEvents attributes, empty for an ordinary request
 * @param body       the S3 notification body or audit entries to parse
 */
record IncomingCloudEvent(Map<String, String> attributes, byte[] body) {
    private static final String STRUCTURED = "application/cloudevents+json";
    private static final String BATCH = "application/cloudevents-batch+json";
    private static final String VERSION_ATTRIBUTE = "specversion";

    /**
     * The body and attributes of a request.
     *
     * @throws MalformedEventException when the request claims to be a CloudEvent and is not a valid one
     */
    static IncomingCloudEvent of(HttpFields headers, byte[] body) throws MalformedEventException {
        String contentType = mediaType(headers.get("Content-Type"));
        if (contentType.equals(BATCH)) {
            throw new MalformedEventException("CloudEvents batched mode is not accepted: send one event per request");
        }
        if (contentType.equals(STRUCTURED)) {
            return structured(body);
        }
        if (!headers.contains(CloudEventAttributes.HEADER_PREFIX + VERSION_ATTRIBUTE)) {
            // not a CloudEvent: other ce- headers, if any, are not ours to judge
            return new IncomingCloudEvent(Map.of(), body);
        }
        Map<String, String> attributes = new LinkedHashMap<>();
        for (HttpField f : headers) {
            String name = f.getName().toLowerCase(Locale.ROOT);
            if (name.startsWith(CloudEventAttributes.HEADER_PREFIX) && name.length() > 3) {
                String attribute = name.substring(3);
                problem(attribute);
                try {
                    attributes.put(attribute, CloudEventAttributes.decodeHeaderValue(f.getValue()));
                } catch (IllegalArgumentException e) {
                    throw new MalformedEventException("header " + f.getName() + ": " + e.getMessage());
                }
            }
        }
        return checked(attributes, body);
    }

    private static IncomingCloudEvent structured(byte[] body) throws MalformedEventException {
        Map<String, String> attributes = new LinkedHashMap<>();
        JsonNode root;
        try (JsonParser p = Json.bodyParser(body)) {
            root = p.readValueAsTree();
            if (p.nextToken() != null) {
                throw new MalformedEventException("structured CloudEvent: more than one JSON value");
            }
        } catch (IOException e) {
            throw new MalformedEventException("structured CloudEvent is not JSON");
        }
        if (!(root instanceof ObjectNode event)) {
            throw new MalformedEventException("structured CloudEvent is not a JSON object");
        }
        JsonNode data = event.get("data");
        if (data == null || !data.isObject()) {
            throw new MalformedEventException("structured CloudEvent: data must be the S3 notification or audit JSON object");
        }
        for (Map.Entry<String, JsonNode> member : event.properties()) {
            String name = member.getKey();
            if (name.equals("data")) {
                continue;
            }
            if (name.equals("data_base64")) {
                throw new MalformedEventException("structured CloudEvent: data_base64 is not accepted, data is JSON");
            }
            problem(name);
            JsonNode v = member.getValue();
            if (!v.isValueNode() || v.isNull()) {
                throw new MalformedEventException("structured CloudEvent: attribute " + name + " is not a value");
            }
            attributes.put(name, v.asText());
        }
        if (!attributes.containsKey(VERSION_ATTRIBUTE)) {
            throw new MalformedEventException("structured CloudEvent without specversion");
        }
        try {
            return checked(attributes, Json.WRITER.writeValueAsBytes(data));
        } catch (IOException e) {
            throw new MalformedEventException("structured CloudEvent: data cannot be read");
        }
    }

    private static IncomingCloudEvent checked(Map<String, String> attributes, byte[] body) throws MalformedEventException {
        String version = attributes.get(VERSION_ATTRIBUTE);
        if (!CloudEventAttributes.CLOUDEVENTS_VERSION.equals(version)) {
            throw new MalformedEventException("CloudEvents specversion " + quote(version) + " is not supported, only "
                + CloudEventAttributes.CLOUDEVENTS_VERSION);
        }
        try {
            CloudEventAttributes.toJson(attributes);
        } catch (IllegalArgumentException e) {
            throw new MalformedEventException(e.getMessage());
        }
        return new IncomingCloudEvent(attributes, body);
    }

    private static void problem(String attribute) throws MalformedEventException {
        var p = CloudEventAttributes.nameProblem(attribute);
        if (p.isPresent()) {
            throw new MalformedEventException(p.get());
        }
    }

    private static String quote(String s) {
        return "\"" + (s.length() > 20 ? s.substring(0, 20) + "..." : s) + "\"";
    }

    private static String mediaType(String contentType) {
        if (contentType == null) {
            return "";
        }
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }

    /**
     * The attributes the {@code n}-th of {@code count} events keeps: the sender's, and when its one
     * CloudEvent carried several events, an {@code id} made distinct per event ({@code <id>.<n>}).
     */
    Map<String, String> forEvent(int n, int count) {
        if (count == 1 || !attributes.containsKey("id")) {
            return attributes;
        }
        Map<String, String> own = new LinkedHashMap<>(attributes);
        own.put("id", attributes.get("id") + "." + (n + 1));
        return own;
    }
}

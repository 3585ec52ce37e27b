package dev.jetsink.server.admin;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.server.testing.DaemonHarness;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Admin API requests against a {@link DaemonHarness}'s daemon, with its admin token and data dir. */
final class AdminCalls {

    static final String TOKEN = "admin-token-for-tests";

    private final DaemonHarness h;
    private String token = TOKEN;

    AdminCalls(DaemonHarness h) {
        this.h = h;
    }

    /** Sets the admin token and a data dir under the harness's queue root in its environment. */
    static Path configure(DaemonHarness h) throws IOException {
        Path data = Files.createDirectories(h.queueRoot.resolve("data"));
        h.with(Map.of("JETSINK_ADMIN_TOKEN", TOKEN, "JETSINK_DATA_DIR", data.toString()));
        return data;
    }

    AdminCalls withToken(String t) {
        this.token = t;
        return this;
    }

    static String base(TargetKind kind) {
        return AdminHandler.BASE + (kind == TargetKind.AUDIT ? "/audit" : "") + "/target";
    }

    /** The key_values of a JetStream target on the harness's broker. */
    Map<String, String> jetStream(String stream, String subject) {
        Map<String, String> kv = new LinkedHashMap<>();
        kv.put("address", h.nats.url());
        kv.put("subject", subject);
        kv.put("jetstream_enable", "on");
        kv.put("jetstream_stream_name", stream);
        kv.put("jetstream_ack_timeout_secs", "10");
        kv.put("queue_dir", h.queueRoot.resolve("queues").toString());
        return kv;
    }

    HttpResponse<String> put(TargetKind kind, String id, Map<String, String> keyValues, String query)
            throws IOException, InterruptedException {
        ObjectNode body = Json.object();
        ArrayNode kv = body.putArray("key_values");
        keyValues.forEach((k, v) -> kv.addObject().put("key", k).put("value", v));
        return putRaw(kind, id, body.toString(), query);
    }

    HttpResponse<String> put(TargetKind kind, String id, Map<String, String> keyValues)
            throws IOException, InterruptedException {
        return put(kind, id, keyValues, "");
    }

    HttpResponse<String> putRaw(TargetKind kind, String id, String body, String query)
            throws IOException, InterruptedException {
        return h.send(authorized(HttpRequest.newBuilder(h.uri(base(kind) + "/nats/" + id + query)))
            .PUT(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    HttpResponse<String> list(TargetKind kind) throws IOException, InterruptedException {
        return h.send(authorized(HttpRequest.newBuilder(h.uri(base(kind) + "/list"))).GET().build());
    }

    HttpResponse<String> reset(TargetKind kind, String id) throws IOException, InterruptedException {
        return h.send(authorized(HttpRequest.newBuilder(h.uri(base(kind) + "/nats/" + id + "/reset"))).DELETE().build());
    }

    /** The listed target with this display id, or a missing node. */
    JsonNode listed(TargetKind kind, String displayId) throws IOException, InterruptedException {
        for (JsonNode t : Json.READER.readTree(list(kind).body()).path("targets")) {
            if (t.path("target").asText().equals(displayId)) {
                return t;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    static JsonNode json(HttpResponse<String> r) throws IOException {
        return Json.READER.readTree(r.body());
    }

    private HttpRequest.Builder authorized(HttpRequest.Builder b) {
        b.timeout(DaemonHarness.AWAIT);
        if (!token.isEmpty()) {
            b.header("Authorization", "Bearer " + token);
        }
        return b;
    }
}

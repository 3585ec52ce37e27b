package dev.jetsink.server.ingest;

import dev.jetsink.internal.event.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jetsink.server.testing.EventLoad;
import dev.jetsink.server.testing.WebhookFixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Malformed and hostile ingest requests for fault scenario 3, drawn from a seeded {@link Random} so
 * a failing run can be replayed: truncated JSON, wrong types in required fields, huge strings, deep
 * nesting, invalid UTF-8, random bytes, and all of those under wrong content types. None of them is
 * a valid body, so none may be queued.
 */
final class HostileBodies {

    /** One request: where it goes, its content type, its bytes and what kind of damage it carries. */
    record Hostile(String path, String contentType, byte[] body, String damage) {
    }

    private static final String[] CONTENT_TYPES = {"application/json", "text/plain", "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=xyz", "application/octet-stream", "application/xml", "image/jpeg"};
    private static final String[] NOTIFY_REQUIRED = {"eventName", "s3", "s3.bucket", "s3.bucket.name", "s3.object",
        "s3.object.key"};
    private static final String[] AUDIT_TYPED = {"api", "api.name", "api.bucket", "requestHeader", "responseHeader"};
    private static final byte[][] BAD_UTF8 = {{(byte) 0xFF}, {(byte) 0xC3, 0x28}, {(byte) 0xC0, (byte) 0xAF},
        {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80},
        {(byte) 0xE2, (byte) 0x82}, {0x00}, {(byte) 0xFE, (byte) 0xFF}};
    private static final int DAMAGES = 9;

    private final Random random;

    HostileBodies(long seed) {
        this.random = new Random(seed);
    }

    List<Hostile> take(int count) {
        List<Hostile> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(next(i));
        }
        return out;
    }

    private Hostile next(int i) {
        boolean audit = random.nextInt(4) == 0;
        String path = audit ? "/audit" : "/notify";
        String valid = audit ? WebhookFixtures.auditEntry(i) : EventLoad.body(i);
        String json = "application/json";
        return switch (i % DAMAGES) {
            case 0 -> new Hostile(path, json, truncated(valid), "truncated");
            case 1 -> new Hostile(path, json, wrongType(valid, audit), "wrong type");
            case 2 -> new Hostile(path, json, hugeString(i, audit), "huge string");
            case 3 -> new Hostile(path, json, deepNesting(), "deep nesting");
            case 4 -> new Hostile(path, json, badUtf8(valid), "invalid UTF-8");
            case 5 -> new Hostile(path, json, randomBytes(), "random bytes");
            case 6 -> new Hostile(path, json, notAnEvent(audit), "not an event");
            default -> {
                // wrong content type over another kind of damage
                Hostile inner = next(i + 1 + random.nextInt(DAMAGES - 2));
                yield new Hostile(inner.path(), CONTENT_TYPES[1 + random.nextInt(CONTENT_TYPES.length - 1)],
                    inner.body(), inner.damage().replace(" as wrong content type", "") + " as wrong content type");
            }
        };
    }

    private byte[] truncated(String valid) {
        byte[] b = valid.getBytes(StandardCharsets.UTF_8);
        // strictly inside the single top-level object, so what is left can never be complete
        return java.util.Arrays.copyOf(b, random.nextInt(b.length - 1));
    }

    private byte[] wrongType(String valid, boolean audit) {
        try {
            ObjectNode root = (ObjectNode) Json.READER.readTree(valid);
            ObjectNode target = audit ? root : (ObjectNode) root.get("Records").get(0);
            String field = audit ? AUDIT_TYPED[random.nextInt(AUDIT_TYPED.length)]
                : NOTIFY_REQUIRED[random.nextInt(NOTIFY_REQUIRED.length)];
            String[] parts = field.split("\\.");
            ObjectNode parent = target;
            for (int p = 0; p < parts.length - 1; p++) {
                parent = (ObjectNode) parent.get(parts[p]);
            }
            String last = parts[parts.length - 1];
            boolean wantsObject = parent.get(last) != null && parent.get(last).isObject();
            parent.set(last, wrongValue(wantsObject));
            return Json.WRITER.writeValueAsBytes(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private JsonNode wrongValue(boolean wantsObject) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        return switch (random.nextInt(4)) {
            case 0 -> f.numberNode(random.nextInt());
            case 1 -> f.arrayNode().add("x");
            case 2 -> f.booleanNode(true);
            default -> wantsObject ? f.textNode("not an object") : f.objectNode().put("k", "v");
        };
    }

    private byte[] hugeString(int i, boolean audit) {
        if (i % 100 == 2) {
            // over the 4 MiB bound: 413
            return ("{\"EventName\":\"" + "A".repeat(4 * 1024 * 1024 + 10) + "\"}").getBytes(StandardCharsets.UTF_8);
        }
        String huge = "\u00e9".repeat(100_000 + random.nextInt(400_000));
        return switch (random.nextInt(3)) {
            // an object name over the queue's 64 KiB metadata bound, in an otherwise valid record or entry
            case 0 -> (audit ? WebhookFixtures.auditEntry(i).replace("\"PutObject\"", "\"" + huge + "\"")
                : EventLoad.body(i).replace(EventLoad.key(i), huge)).getBytes(StandardCharsets.UTF_8);
            // a huge string where an array (notify) or an object (audit) belongs
            case 1 -> ("{\"" + (audit ? "api" : "Records") + "\":\"" + huge + "\"}").getBytes(StandardCharsets.UTF_8);
            default -> ("\"" + huge + "\"").getBytes(StandardCharsets.UTF_8);
        };
    }

    private byte[] deepNesting() {
        int depth = 65 + random.nextInt(200_000);
        StringBuilder b = new StringBuilder(depth * 6);
        boolean objects = random.nextBoolean();
        for (int d = 0; d < depth; d++) {
            b.append(objects ? "{\"a\":" : "[");
        }
        b.append("1");
        for (int d = 0; d < depth; d++) {
            b.append(objects ? "}" : "]");
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private byte[] badUtf8(String valid) {
        byte[] b = valid.getBytes(StandardCharsets.UTF_8);
        int at = valid.indexOf("\"key\":\"");
        int cut = at < 0 ? random.nextInt(b.length) : at + 7;
        byte[] bad = BAD_UTF8[random.nextInt(BAD_UTF8.length)];
        ByteArrayOutputStream out = new ByteArrayOutputStream(b.length + bad.length);
        out.write(b, 0, cut);
        out.write(bad, 0, bad.length);
        out.write(b, cut, b.length - cut);
        return out.toByteArray();
    }

    private byte[] randomBytes() {
        byte[] b = new byte[1 + random.nextInt(4096)];
        random.nextBytes(b);
        // a leading '{' makes the parser go further before it gives up
        b[0] = random.nextBoolean() ? (byte) '{' : b[0];
        return b;
    }

    private byte[] notAnEvent(boolean audit) {
        String[] notify = {"", "   \n", "null", "true", "42", "\"text\"", "[]", "[{}]", "{}", "{\"Records\":[]}",
            "{\"Records\":{}}", "{\"Records\":[1,2]}", "{\"EventName\":\"s3:ObjectCreated:Put\"}", "{} {}",
            "{\"Records\":[null]}"};
        String[] auditBodies = {"", "\n\n", "null", "[]", "[1]", "[{}, 2]", "\"entry\"", "42", "{} 7", "[{}] {}",
            "{\"api\":\"PutObject\"}", "{\"api\":{\"name\":7}}"};
        String[] pool = audit ? auditBodies : notify;
        return pool[random.nextInt(pool.length)].getBytes(StandardCharsets.UTF_8);
    }
}

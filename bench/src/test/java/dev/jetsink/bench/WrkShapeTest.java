package dev.jetsink.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bodies the batch bench's wrk scripts send are what the senders send, each event distinct. */
class WrkShapeTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static byte[] resource(String name) throws Exception {
        try (InputStream in = WrkShapeTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip().getBytes(StandardCharsets.UTF_8);
        }
    }

    @Test
    void aNotifyBodyCarriesTheAskedNumberOfDistinctRecords() throws Exception {
        Wrk.Shape shape = Wrk.notify(resource("minio-notify-put.json"), 3);
        JsonNode body = JSON.readTree(shape.body("7"));

        assertThat(body.path("EventName").asText()).isEqualTo("s3:ObjectCreated:Put");
        assertThat(body.path("Records")).hasSize(3);
        Set<String> marks = new HashSet<>();
        body.path("Records").forEach(r -> {
            marks.add(r.path("bench").asText());
            assertThat(r.path("s3").path("bucket").path("name").isTextual()).isTrue();
        });
        assertThat(marks).containsExactlyInAnyOrder("7-1", "7-2", "7-3");
        assertThat(shape.path()).isEqualTo("/notify");
    }

    @Test
    void anAuditBatchIsOneEntryPerLineEachDistinct() throws Exception {
        Wrk.Shape shape = Wrk.auditBatch(resource("minio-audit-entry.json"), 4);
        String body = new String(shape.body("9"), StandardCharsets.UTF_8);

        assertThat(body).endsWith("\n");
        String[] lines = body.strip().split("\n");
        assertThat(lines).hasSize(4);
        Set<String> marks = new HashSet<>();
        for (String line : lines) {
            JsonNode entry = JSON.readTree(line);
            marks.add(entry.path("bench").asText());
            assertThat(entry.path("api").path("name").asText()).isEqualTo("PutObject");
        }
        assertThat(marks).hasSize(4);
        assertThat(shape.headers()).containsEntry("X-Minio-Webhook-Payload-Count", "4").doesNotContainKey("Content-Type");
    }

    @Test
    void theScriptKeepsTheNewlineBetweenEntries() throws Exception {
        Wrk wrk = Wrk.posting(Path.of("/usr/bin/wrk"), Wrk.auditBatch(resource("minio-audit-entry.json"), 2), 16, dir);
        String lua;
        try (var files = Files.list(dir)) {
            lua = Files.readString(files.filter(p -> p.toString().endsWith(".lua")).findFirst().orElseThrow());
        }
        // a Lua long string drops a newline right after its opening bracket: the joiner must hold two
        assertThat(lua).contains("local joiner = [==[\n\n]==]");
        assertThat(lua).contains("wrk.path = [==[/audit]==]");
        assertThat(wrk.connections()).isEqualTo(16);
    }
}

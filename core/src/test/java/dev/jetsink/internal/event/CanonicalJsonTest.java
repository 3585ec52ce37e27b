package dev.jetsink.internal.event;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CanonicalJsonTest {

    private static JsonNode json(String s) throws Exception {
        return Json.READER.readTree(s);
    }

    @Test
    void membersAreSortedAndWhitespaceDropped() throws Exception {
        String canonical = new String(CanonicalJson.bytes(json("{ \"b\" : [ 2 , {\"y\":1,\"x\":\"é\"} ], \"a\" : null }")),
            StandardCharsets.UTF_8);
        assertThat(canonical).isEqualTo("{\"a\":null,\"b\":[2,{\"x\":\"é\",\"y\":1}]}");
    }

    @Test
    void memberOrderAndSpacingDoNotChangeTheDigestButAnyValueDoes() throws Exception {
        byte[] base = CanonicalJson.sha256(json("{\"a\":1,\"b\":{\"c\":\"x\",\"d\":[1,2]}}"));
        assertThat(CanonicalJson.sha256(json("{ \"b\": {\"d\": [1, 2], \"c\": \"x\"}, \"a\": 1 }"))).isEqualTo(base);
        assertThat(CanonicalJson.sha256(json("{\"a\":2,\"b\":{\"c\":\"x\",\"d\":[1,2]}}"))).isNotEqualTo(base);
        assertThat(CanonicalJson.sha256(json("{\"a\":1,\"b\":{\"c\":\"y\",\"d\":[1,2]}}"))).isNotEqualTo(base);
        assertThat(CanonicalJson.sha256(json("{\"a\":1,\"b\":{\"c\":\"x\",\"d\":[2,1]}}"))).as("array order counts")
            .isNotEqualTo(base);
        assertThat(CanonicalJson.sha256(json("{\"a\":\"1\",\"b\":{\"c\":\"x\",\"d\":[1,2]}}"))).as("type counts")
            .isNotEqualTo(base);
        assertThat(CanonicalJson.sha256(json("{\"a\":1,\"b\":{\"c\":\"x\",\"d\":[1,2]},\"e\":null}"))).as("a new member")
            .isNotEqualTo(base);
    }

    @Test
    void numbersKeepTheDigitsTheyArrivedWith() throws Exception {
        assertThat(new String(CanonicalJson.bytes(json("{\"size\":1.50,\"n\":30000000000000000000000000001}")),
            StandardCharsets.UTF_8)).isEqualTo("{\"n\":30000000000000000000000000001,\"size\":1.50}");
        assertThat(CanonicalJson.sha256(json("{\"size\":1.50}"))).isNotEqualTo(CanonicalJson.sha256(json("{\"size\":1.5}")));
    }

    @Test
    void theDigestIsTheSha256OfTheCanonicalBytes() throws Exception {
        JsonNode v = json("{\"z\":true,\"a\":[\"q\"]}");
        assertThat(CanonicalJson.sha256(v)).isEqualTo(CanonicalJson.sha256().digest(CanonicalJson.bytes(v)));
    }
}

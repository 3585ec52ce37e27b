package dev.jetsink.internal.event;

import dev.jetsink.event.MalformedEventException;
import dev.jetsink.internal.config.TargetKind;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every malformed body is refused as a whole, with a message naming the place at fault. */
class MalformedBodyTest {
    private static final String RECORD =
            "{\"eventName\":\"s3:ObjectCreated:Put\",\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{\"key\":\"k\"}}}";

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "``                                                              | body is empty",
        "`  \n `                                                         | body is empty",
        "{\"EventName\": }                                               | line 1: not valid JSON at column 15",
        "{\"Records\":[                                                  | line 1: JSON ends before the value is complete at column 13",
        "[]                                                              | body must be a JSON object",
        "{\"Records\":{}}                                                | Records must be an array",
        "{\"Records\":[]}                                                | Records must hold at least one record",
        "{\"Records\":[" + RECORD + ",7]}                                | record 2: must be a JSON object",
        "{\"Records\":[" + RECORD + ",{\"eventName\":\"e\",\"s3\":{\"bucket\":{},\"object\":{\"key\":\"k\"}}}]} | record 2: s3.bucket.name is required",
        "{\"eventName\":5,\"s3\":{}}                                     | record 1: eventName must be a string",
        "{\"eventName\":\"\",\"s3\":{}}                                  | record 1: eventName must not be empty",
        "{\"eventName\":\"e\"}                                           | record 1: s3 is required",
        "{\"eventName\":\"e\",\"s3\":\"x\"}                              | record 1: s3 must be an object",
        "{\"eventName\":\"e\",\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{}}} | record 1: s3.object.key is required",
        "{\"eventName\":\"e\",\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{\"key\":\"k\",\"contentType\":1}}} | record 1: s3.object.contentType must be a string",
        "`{}\n{}`                                                        | line 2: a notify body holds one JSON object, found another value",
    })
    void notifyBodyIsRefusedWithExactMessage(String body, String message) {
        assertRefused(TargetKind.NOTIFY, body.strip().getBytes(StandardCharsets.UTF_8), message);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "``                                                              | body is empty",
        "`{\"event\":\"a\"}\n{\"event\":\"b\"}\n{\"event\":\"c\",,\"api\":{}}` | line 3: not valid JSON at column 14",
        "[]                                                              | body is an empty array: no entries",
        "`[{}]\n{}`                                                      | line 2: nothing may follow a JSON array of entries",
        "[{},\"x\"]                                                      | entry 2: must be a JSON object",
        "`{\"event\":\"a\"}\n5`                                          | entry 2: must be a JSON object",
        "\"just a string\"                                               | entry 1: must be a JSON object",
        "{\"api\":[]}                                                    | entry 1: api must be an object",
        "[{},{\"api\":{\"name\":7}}]                                     | entry 2: api.name must be a string",
        "{\"api\":{\"bucket\":true}}                                     | entry 1: api.bucket must be a string",
        "{\"event\":{}}                                                  | entry 1: event must be a string",
        "{\"requestHeader\":[\"Authorization: x\"]}                      | entry 1: requestHeader must be an object",
    })
    void auditBodyIsRefusedWithExactMessage(String body, String message) {
        assertRefused(TargetKind.AUDIT, body.strip().getBytes(StandardCharsets.UTF_8), message);
    }

    @Test
    void invalidUtf8IsRefusedWithItsOffset() {
        byte[] body = {'{', '"', 'e', '"', ':', '"', (byte) 0xC3, 0x28, '"', '}'};

        assertRefused(TargetKind.NOTIFY, body, "body is not valid UTF-8 at byte offset 6");
    }

    @Test
    void utf8EncodedSurrogateIsRefused() {
        byte[] body = {'{', '"', 'e', '"', ':', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'};

        assertRefused(TargetKind.AUDIT, body, "body is not valid UTF-8 at byte offset 6");
    }

    @Test
    void nulAnywhereIsRefusedWithItsOffset() {
        // 8 bytes are checked at a time and the tail one by one: every offset of both.
        byte[] valid = ("{\"event\":\"a\",\"pad\":\"" + "x".repeat(37) + "\"}").getBytes(StandardCharsets.UTF_8);
        for (int at = 0; at < valid.length; at++) {
            byte[] body = valid.clone();
            body[at] = 0;
            assertRefused(TargetKind.AUDIT, body, "not valid JSON: NUL byte at byte offset " + at);
        }
    }

    @Test
    void badUtf8AnywhereIsRefusedWithItsOffset() {
        byte[] valid = ("{\"event\":\"a\",\"pad\":\"" + "x".repeat(37) + "\"}").getBytes(StandardCharsets.UTF_8);
        for (int at = 21; at < valid.length - 2; at++) {
            byte[] body = valid.clone();
            body[at] = (byte) 0xC3; // a lead byte followed by ASCII
            assertRefused(TargetKind.AUDIT, body, "body is not valid UTF-8 at byte offset " + at);
        }
    }

    @Test
    void utf8AfterANulIsNotWhatIsReported() {
        byte[] body = ("{\"event\":\"\u00e9\",\"pad\":\"xxxxxxxxxxxxxxxx\"}").getBytes(StandardCharsets.UTF_8);
        body[body.length - 5] = 0;
        assertRefused(TargetKind.AUDIT, body, "not valid JSON: NUL byte at byte offset " + (body.length - 5));
    }

    @Test
    void utf16BodyIsRefusedNotGuessed() {
        byte[] body = "{\"event\":\"a\"}".getBytes(StandardCharsets.UTF_16BE);

        assertRefused(TargetKind.AUDIT, body, "not valid JSON: NUL byte at byte offset 0");
    }

    @Test
    void nestingDeeperThan64LevelsIsRefused() {
        String deep = "[".repeat(64) + "]".repeat(64);
        byte[] body = ("{\"deep\":" + deep + "}").getBytes(StandardCharsets.UTF_8);

        assertRefused(TargetKind.AUDIT, body, "line 1: nesting deeper than 64 levels at column 73");
    }

    @Test
    void nestingOf64LevelsIsAccepted() throws Exception {
        String deep = "[".repeat(63) + "]".repeat(63);
        byte[] body = ("{\"deep\":" + deep + "}").getBytes(StandardCharsets.UTF_8);

        assertThat(EventParser.forKind(TargetKind.AUDIT).parse(body)).hasSize(1);
    }

    @Test
    void numberWithThousandsOfDigitsIsRefused() {
        byte[] body = ("{\"n\":" + "1".repeat(1001) + "}").getBytes(StandardCharsets.UTF_8);

        assertRefused(TargetKind.AUDIT, body, "line 1: number with too many digits at column 1007");
    }

    @Test
    void numberWhoseExponentNoDecimalHoldsIsRefused() {
        // found by EventParserFuzzTest: Jackson threw NumberFormatException out of the parser
        byte[] body = "{\"n\":1}\n{\"size\":3e111111111111}".getBytes(StandardCharsets.UTF_8);

        assertRefused(TargetKind.AUDIT, body, "line 2: number out of range at column 9");
        assertRefused(TargetKind.NOTIFY, "3e111111111111".getBytes(StandardCharsets.UTF_8),
            "line 1: number out of range at column 1");
    }

    @Test
    void escapedHalfOfASurrogatePairIsRefused() {
        // found by EventParserFuzzTest: the key read back from the published envelope differed
        assertRefused(TargetKind.AUDIT, "{\"api\":{\"object\":\"a\\ude0d\"}}".getBytes(StandardCharsets.UTF_8),
            "escape \\uDE0D at byte 20 is half of a surrogate pair, not a character");
        assertRefused(TargetKind.AUDIT, "{\"k\":\"\\ud83d\\u0041\"}".getBytes(StandardCharsets.UTF_8),
            "escape \\uD83D at byte 7 is half of a surrogate pair, not a character");
    }

    @Test
    void escapedSurrogatePairsAndEscapedBackslashesAreRead() throws Exception {
        // one character from a pair of escapes; "\\\\ud800" is a backslash, then text
        byte[] body = "{\"version\":\"1\",\"api\":{\"name\":\"PutObject\",\"bucket\":\"b\",\"object\":\"\\ud83d\\ude00 \\\\ud800\"}}"
            .getBytes(StandardCharsets.UTF_8);
        byte[] published = EventParser.forKind(TargetKind.AUDIT).parse(body).get(0).payload();
        assertThat(Json.READER.readTree(published).path("Records").path(0).path("data").path("api")
            .path("object").textValue()).isEqualTo("\ud83d\ude00 \\ud800");
    }

    @Test
    void bodyOverFourMebibytesIsRefused() {
        byte[] body = new byte[EventParser.MAX_EVENT_BODY_BYTES + 1];
        Arrays.fill(body, (byte) ' ');

        assertRefused(TargetKind.NOTIFY, body, "body is larger than 4194304 bytes");
    }

    @Test
    void oneBadRecordRefusesTheWholeBody() {
        String body = "{\"Records\":[" + RECORD + "," + RECORD + ",{\"eventName\":\"e\",\"s3\":{\"bucket\":{\"name\":\"b\"}}}]}";

        assertRefused(TargetKind.NOTIFY, body.getBytes(StandardCharsets.UTF_8), "record 3: s3.object is required");
    }

    @Test
    void errorMessageNeverQuotesTheBody() {
        byte[] body = "{\"requestHeader\":{\"Authorization\":\"Bearer topsecret\"} oops"
                .getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> EventParser.forKind(TargetKind.AUDIT).parse(body))
                .isInstanceOf(MalformedEventException.class)
                .hasMessage("line 1: not valid JSON at column 55")
                .satisfies(e -> assertThat(e.getStackTrace()).isEmpty());
    }

    private static void assertRefused(TargetKind kind, byte[] body, String message) {
        assertThatThrownBy(() -> EventParser.forKind(kind).parse(body))
                .isInstanceOf(MalformedEventException.class)
                .hasMessage(message);
    }
}

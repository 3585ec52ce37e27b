package dev.jetsink.internal.event;

import dev.jetsink.event.MalformedEventException;
import dev.jetsink.internal.config.TargetKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The one pass over a body takes every body real senders post (the fuzz seeds: RustFS, MinIO,
 * Ceph RGW and the event fixtures) and makes of it what the tree path makes, byte for byte; the
 * bodies it leaves to the tree path still get the tree path's answer.
 */
class OnePassTest {
    private static final Path SEEDS = Path.of("src/test/resources/dev/jetsink/internal/event/EventParserFuzzTestInputs");

    static Stream<Arguments> senderBodies() throws IOException {
        return Stream.of(TargetKind.NOTIFY, TargetKind.AUDIT).flatMap(kind -> {
            Path dir = SEEDS.resolve(kind == TargetKind.NOTIFY ? "notifyBody" : "auditBody");
            try (Stream<Path> files = Files.list(dir)) {
                return files.filter(f -> !f.getFileName().toString().startsWith("crash-")).sorted()
                    .map(f -> Arguments.of(kind, f.getFileName().toString())).toList().stream();
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("senderBodies")
    void everySenderBodyTakesTheOnePassAndComesOutAsFromTheTree(TargetKind kind, String file) throws Exception {
        byte[] body = Files.readAllBytes(SEEDS.resolve(kind == TargetKind.NOTIFY ? "notifyBody" : "auditBody").resolve(file));

        List<OutboundEvent> events = OnePass.events(kind, body);

        assertThat(events).as("the one pass takes this body").isNotNull().isNotEmpty();
        assertThat(events).as("the opt-in formats are cut from the pass's envelope")
            .allSatisfy(e -> assertThat(e.formatFields()).isPresent());
        EventParserFuzzTest.sameAsTheTree(kind, body, events);
    }

    static Stream<Arguments> fieldsTheFormatsRead() {
        String ceph = "{\"eventSource\":\"ceph:s3\",\"eventName\":\"ObjectCreated:Put\",\"awsRegion\":\"zg\","
            + "\"eventTime\":\"2026-12-07T07:00:00.5Z\",\"responseElements\":{\"x-amz-request-id\":\"r1\","
            + "\"x-amz-id-2\":\"h2\"},\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{\"key\":\"a b+c/\u00fc \\\"q\\\".txt\"}}}";
        return Stream.of(
            Arguments.of(TargetKind.NOTIFY, "a Ceph key AWS writes encoded", ceph, true),
            Arguments.of(TargetKind.NOTIFY, "responseElements not an object",
                "{\"eventName\":\"e\",\"responseElements\":[1],\"eventTime\":7,\"s3\":{\"bucket\":{\"name\":\"b\"},"
                    + "\"object\":{\"key\":\"k\"}}}", true),
            Arguments.of(TargetKind.NOTIFY, "a boolean eventSource and region",
                "{\"eventSource\":true,\"awsRegion\":false,\"eventName\":\"e\",\"s3\":{\"bucket\":{\"name\":\"b\"},"
                    + "\"object\":{\"key\":\"k%20x\"}}}", true),
            Arguments.of(TargetKind.NOTIFY, "a numeric request id, left to the tree",
                "{\"eventName\":\"e\",\"responseElements\":{\"x-amz-request-id\":12,\"x-amz-id-2\":\"h\"},"
                    + "\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{\"key\":\"k\"}}}", false),
            Arguments.of(TargetKind.AUDIT, "RustFS's time in epoch milliseconds",
                "{\"version\":\"1\",\"deploymentid\":\"d\",\"time\":1765090800123,\"requestID\":\"q\","
                    + "\"api\":{\"name\":\"s3:PutObject\",\"bucket\":\"b\",\"object\":\"o\"}}", true),
            Arguments.of(TargetKind.AUDIT, "a time beyond 64 bits, left to the tree",
                "{\"time\":123456789012345678901234,\"requestHost\":\"h\",\"api\":{\"name\":\"ListBuckets\"}}", false),
            Arguments.of(TargetKind.AUDIT, "a text time that is not RFC 3339 and a numeric host, left to the tree",
                "{\"time\":\"yesterday\",\"requestHost\":5,\"api\":{}}", false));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fieldsTheFormatsRead")
    void theOptInFormatsComeOutAsFromTheTree(TargetKind kind, String what, String text, boolean cut) throws Exception {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);

        List<OutboundEvent> events = OnePass.events(kind, body);

        assertThat(events).as("the one pass takes this body").isNotNull().hasSize(1);
        assertThat(events.get(0).formatFields().isPresent()).as("formats cut from the pass's envelope").isEqualTo(cut);
        EventParserFuzzTest.sameAsTheTree(kind, body, events);
    }

    @ParameterizedTest(name = "astral character at {0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {0, 511, 998, 999, 1000, 1998, 1999})
    void longStringsAndNamesWithAnAstralCharacterComeOutAsFromTheTree(int at) throws Exception {
        // Jackson writes long strings in pieces and escapes an astral character a cut splits: the
        // tree path's bytes then hold \\uD83D\\uDE00 where the body held the character itself.
        String text = "x".repeat(at) + "\uD83D\uDE00" + "y".repeat(2100 - at);
        byte[] body = ("{\"eventName\":\"e\",\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{\"key\":\"k\"}},"
            + "\"value\":\"" + text + "\",\"" + text + "\":1}").getBytes(StandardCharsets.UTF_8);

        List<OutboundEvent> events = OnePass.events(TargetKind.NOTIFY, body);

        assertThat(events).isNotNull();
        EventParserFuzzTest.sameAsTheTree(TargetKind.NOTIFY, body, events);
    }

    static Stream<Arguments> bodiesLeftToTheTree() {
        return Stream.of(
            Arguments.of(TargetKind.NOTIFY, "a name twice",
                "{\"eventName\":\"s3:ObjectCreated:Put\",\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{\"key\":\"k\"}},"
                    + "\"x\":1,\"x\":2}"),
            Arguments.of(TargetKind.NOTIFY, "a missing bucket name",
                "{\"Records\":[{\"eventName\":\"s3:ObjectCreated:Put\",\"s3\":{\"bucket\":{},\"object\":{\"key\":\"k\"}}}]}"),
            Arguments.of(TargetKind.NOTIFY, "a key of the wrong type",
                "{\"eventName\":\"e\",\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{\"key\":7}}}"),
            Arguments.of(TargetKind.NOTIFY, "Records not an array", "{\"Records\":{}}"),
            Arguments.of(TargetKind.NOTIFY, "not JSON", "{\"Records\":[}"),
            Arguments.of(TargetKind.NOTIFY, "a raw control character in a string copied as it stands",
                "{\"eventName\":\"e\",\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{\"key\":\"k\"}},\"x\":\"a\u0001b\"}"),
            Arguments.of(TargetKind.AUDIT, "Records before api: an entry after all",
                "{\"Records\":[{\"a\":1}],\"api\":{\"name\":\"PutObject\"}}"),
            Arguments.of(TargetKind.AUDIT, "api not an object", "{\"api\":\"PutObject\"}"),
            Arguments.of(TargetKind.AUDIT, "a decimal beyond BigDecimal inside a masked header (found by the fuzzer)",
                "{\"requestHeader\":{\"Cookie\":{\"a\":7e64512400011}}}"),
            Arguments.of(TargetKind.AUDIT, "a bad escape in a masked header", "{\"requestHeader\":{\"Cookie\":\"a\\qb\"}}"),
            Arguments.of(TargetKind.NOTIFY, "a decimal beyond BigDecimal in the webhook form's own members",
                "{\"Records\":[{\"eventName\":\"e\",\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{\"key\":\"k\"}}}],"
                    + "\"x\":[1e99999999999]}"),
            Arguments.of(TargetKind.AUDIT, "an entry that is not an object", "{\"api\":{}}\n42"),
            Arguments.of(TargetKind.AUDIT, "a header name twice, once masked",
                "{\"requestHeader\":{\"Authorization\":\"secret\",\"authorization\":\"other\",\"Authorization\":\"x\"}}"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("bodiesLeftToTheTree")
    void bodiesTheOnePassLeavesGetTheTreePathsAnswer(TargetKind kind, String what, String text) throws Exception {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);

        assertThat(OnePass.events(kind, body)).as(what).isNull();

        EventParser parser = EventParser.forKind(kind);
        try {
            List<OutboundEvent> tree = parser.parseTree(body);
            EventParserFuzzTest.sameAsTheTree(kind, body, parser.parse(body));
            assertThat(tree).isNotEmpty();
        } catch (MalformedEventException refused) {
            assertThatThrownBy(() -> parser.parse(body)).isInstanceOf(MalformedEventException.class)
                .hasMessage(refused.getMessage());
        }
    }
}

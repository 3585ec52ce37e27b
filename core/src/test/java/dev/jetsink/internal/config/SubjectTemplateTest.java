package dev.jetsink.internal.config;

import dev.jetsink.internal.event.EventMetadata;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Subject templates: parsing, resolution, the token encoding and the subject space. */
class SubjectTemplateTest {
    private static EventMetadata notify(String bucket, String key, String event) {
        return new EventMetadata(TargetKind.NOTIFY, bucket, key, event, "");
    }

    @Test
    void placeholdersResolveToEncodedTokens() {
        SubjectTemplate t = SubjectTemplate.parse("subject", "rustfs.{target}.{bucket}.{event}.{key_prefix:2}",
            TargetKind.NOTIFY);
        assertThat(t.hasPlaceholders()).isTrue();
        assertThat(resolve(t, notify("logs.2026", "a b/c/d.txt", "s3:ObjectCreated:Put"), "primary"))
            .isEqualTo("rustfs.primary.logs%2E2026.ObjectCreated.Put.a%20b.c");
        assertThat(resolve(t, notify("photos", "cat.jpg", "s3:ObjectRemoved:Delete"), TargetConfig.DEFAULT_ID))
            .as("the unsuffixed target is the empty value; a one-segment key is one token")
            .isEqualTo("rustfs._.photos.ObjectRemoved.Delete.cat%2Ejpg");
        assertThat(t.captureSpace()).isEqualTo("rustfs.*.*.*.*.>");
    }

    @Test
    void anEventNameAlwaysMakesTwoTokens() {
        SubjectTemplate t = SubjectTemplate.parse("subject", "e.{event}", TargetKind.NOTIFY);
        assertThat(resolve(t, notify("b", "k", "s3:ObjectCreated:Put"), "x")).isEqualTo("e.ObjectCreated.Put");
        assertThat(resolve(t, notify("b", "k", "Custom"), "x")).isEqualTo("e.Custom._");
        assertThat(resolve(t, notify("b", "k", "s3:A:B:C"), "x")).isEqualTo("e.A.B%3AC");
        assertThat(resolve(t, notify("b", "k", ""), "x")).isEqualTo("e._._");
    }

    @Test
    void auditTargetsUseApiAndBucket() {
        SubjectTemplate t = SubjectTemplate.parse("subject", "audit.{api}.{bucket}", TargetKind.AUDIT);
        assertThat(resolve(t, new EventMetadata(TargetKind.AUDIT, "", "ListBuckets", "s3:ListBuckets", ""), "_"))
            .isEqualTo("audit.ListBuckets._");
        assertThat(t.captureSpace()).isEqualTo("audit.*.*");
    }

    @Test
    void aPlainSubjectIsItsOwnSpace() {
        SubjectTemplate t = SubjectTemplate.parse("subject", "rustfs.events", TargetKind.NOTIFY);
        assertThat(t.hasPlaceholders()).isFalse();
        assertThat(resolve(t, notify("b", "k", "e"), "x")).isEqualTo("rustfs.events");
        assertThat(t.captureSpace()).isEqualTo("rustfs.events");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "a.{bucket}x|NOTIFY|must be a whole subject token",
        "a.{nope}|NOTIFY|unknown placeholder {nope}",
        "a.{key_prefix:2}.b|NOTIFY|must be the last token",
        "a.{key_prefix:0}|NOTIFY|N between 1 and 8",
        "a.{key_prefix:9}|NOTIFY|N between 1 and 8",
        "a.{key_prefix}|NOTIFY|N between 1 and 8",
        "a.{key_prefix:2}|AUDIT|{key_prefix:2} is for notify targets",
        "a.{api}|NOTIFY|{api} is for audit targets",
        "a.{bucket:3}|NOTIFY|{bucket} takes no argument",
        "a.{bucket|NOTIFY|must be a whole subject token",
        "{bucket}.{bucket}.{bucket}.{bucket}.{bucket}.{event}.{key_prefix:8}|NOTIFY|bytes, over the 3500 a NATS publish allows",
    })
    void aTemplateThatCannotYieldAValidSubjectIsRefusedNamingThePlaceholder(String subject, TargetKind kind, String message) {
        assertThatThrownBy(() -> SubjectTemplate.parse("subject", subject, kind))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("subject: ")
            .hasMessageContaining(message);
    }

    @Test
    void theEncodingIsReversibleAndNeverMakesDotsOrWildcards() {
        Random random = new Random(15);
        String alphabet = "aZ09_-. */>%~\u00e9\u732b\uD83D\uDE00\t";
        for (int n = 0; n < 5000; n++) {
            StringBuilder b = new StringBuilder();
            int length = random.nextInt(12);
            for (int i = 0; i < length; i++) {
                int at = random.nextInt(alphabet.length());
                char c = alphabet.charAt(at);
                if (Character.isHighSurrogate(c)) {
                    b.append(c).append(alphabet.charAt(at + 1));
                } else if (!Character.isLowSurrogate(c)) {
                    b.append(c);
                }
            }
            String value = b.toString();
            String token = SubjectTemplate.encode(value);
            assertThat(token).isNotEmpty().matches("[A-Za-z0-9_%-]+");
            assertThat(SubjectTemplate.decode(token)).as(value).contains(value);
        }
        assertThat(SubjectTemplate.encode("")).isEqualTo("_");
        assertThat(SubjectTemplate.encode("_")).isEqualTo("%5F");
        assertThat(SubjectTemplate.encode("__")).isEqualTo("__");
    }

    @Test
    void anOverlongTokenIsCutAndMarkedNeverInsideAnEscape() {
        String token = SubjectTemplate.encode("\u00e9".repeat(200));
        assertThat(token).hasSizeLessThanOrEqualTo(SubjectTemplate.MAX_TOKEN_CHARS).endsWith("~");
        assertThat(token.substring(0, token.length() - 1)).matches("(%C3%A9)+");
        assertThat(SubjectTemplate.decode(token)).as("a cut token has no value").isEmpty();
        assertThat(SubjectTemplate.encode("x".repeat(SubjectTemplate.MAX_TOKEN_CHARS))).doesNotEndWith("~");
    }

    private static String resolve(SubjectTemplate t, EventMetadata m, String targetId) {
        return t.resolve(m.bucket(), m.object(), m.eventName(), targetId);
    }

    @Test
    void onlyATemplateWithTheBucketEndingInTheKeyAndWithoutTheEventCanNameObjects() {
        assertThat(SubjectTemplate.parse("s", "s3.{bucket}.{key_prefix:3}", TargetKind.NOTIFY).namesObjects()).isTrue();
        assertThat(SubjectTemplate.parse("s", "s3.{target}.{bucket}.{key_prefix:1}", TargetKind.NOTIFY).namesObjects()).isTrue();
        assertThat(SubjectTemplate.parse("s", "s3.{key_prefix:3}", TargetKind.NOTIFY).namesObjects())
            .as("two buckets' objects of one key share it").isFalse();
        assertThat(SubjectTemplate.parse("s", "s3.{bucket}.{event}.{key_prefix:3}", TargetKind.NOTIFY).namesObjects())
            .as("an object's events go to several subjects").isFalse();
        assertThat(SubjectTemplate.parse("s", "s3.{bucket}", TargetKind.NOTIFY).namesObjects()).isFalse();
        assertThat(SubjectTemplate.parse("s", "audit.{bucket}.{api}", TargetKind.AUDIT).namesObjects()).isFalse();
        assertThat(SubjectTemplate.parse("s", "s3.{bucket}.{key_prefix:3}", TargetKind.NOTIFY).namesObject("b", "x/y"))
            .isTrue();
        assertThat(SubjectTemplate.parse("s", "s3.{key_prefix:3}", TargetKind.NOTIFY).namesObject("b", "x")).isFalse();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "a.txt|true", "x/y|true", "/|true", "|true", "x/y/z|false", "x//z|false", "x/y/z/w|false", "x/y/|false"})
    void aKeyIsNamedAloneWhenItHasFewerThanNSegments(String key, boolean alone) {
        SubjectTemplate t = SubjectTemplate.parse("s", "s3.{bucket}.{key_prefix:3}", TargetKind.NOTIFY);
        assertThat(t.namesObject("b", key == null ? "" : key)).isEqualTo(alone);
    }

    @Test
    void aKeyOfNSegmentsSharesItsSubjectWithTheKeysBelowIt() {
        SubjectTemplate t = SubjectTemplate.parse("s", "s3.{bucket}.{key_prefix:2}", TargetKind.NOTIFY);
        assertThat(t.resolve("b", "a/b", "e", "t")).isEqualTo(t.resolve("b", "a/b/c", "e", "t"));
        assertThat(t.namesObject("b", "a/b")).isFalse();
        assertThat(t.resolve("b", "a", "e", "t")).isNotEqualTo(t.resolve("b", "a/b", "e", "t"));
        assertThat(t.namesObject("b", "a")).isTrue();
    }

    @Test
    void aKeyWithACutSegmentIsNotNamedAlone() {
        SubjectTemplate t = SubjectTemplate.parse("s", "s3.{bucket}.{key_prefix:3}", TargetKind.NOTIFY);
        String fits = "k".repeat(SubjectTemplate.MAX_TOKEN_CHARS);
        String cut = "k".repeat(SubjectTemplate.MAX_TOKEN_CHARS + 1);
        assertThat(t.namesObject("b", "d/" + fits)).isTrue();
        assertThat(t.namesObject("b", "d/" + cut)).as(cut.length() + " characters end in ~").isFalse();
        assertThat(t.namesObject("b", "d/" + fits + "x")).isFalse();
        assertThat(t.namesObject("b", "d/" + "\u00e9".repeat(40))).as("80 bytes, 240 characters: fits").isTrue();
        assertThat(t.namesObject("b", "d/" + "\u00e9".repeat(41))).isFalse();
        assertThat(t.resolve("b", "d/" + cut, "s3:ObjectCreated:Put", "t")).isEqualTo(t.resolve("b", "d/" + cut + "x",
            "s3:ObjectCreated:Put", "t")).as("why: two cut keys share a subject");
    }
}

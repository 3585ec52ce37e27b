package dev.jetsink.internal.config;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.nats.client.support.Validator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes subject templates (docs/RELIABILITY.md "Fuzzing"): a value encodes to one token that
 * decodes back to it (or is cut, marked {@code ~}, within the token bound); a template the config
 * check accepts resolves, for any bucket, key, event name and target id, to a subject the NATS
 * client accepts, without whitespace or wildcard tokens, within the byte bound, inside the
 * template's own capture space, with each placeholder's token decoding to its value.
 */
class SubjectTemplateFuzzTest {
    private static final String KEY = "subject";
    private static final String[] PLACEHOLDERS = {"{bucket}", "{event}", "{api}", "{target}", "{key_prefix:%d}"};

    @FuzzTest(maxDuration = "10m")
    void encodedTokensRoundTrip(FuzzedDataProvider data) {
        String value = data.consumeRemainingAsString();
        String token = SubjectTemplate.encode(value);
        assertToken(token);
        Optional<String> back = SubjectTemplate.decode(token);
        if (token.endsWith("~")) {
            assertThat(back).as("a cut token decodes to nothing").isEmpty();
            assertThat(token.length()).isLessThanOrEqualTo(SubjectTemplate.MAX_TOKEN_CHARS);
        } else {
            assertThat(back).as("decode(encode(v)) for %s", codeUnits(value)).contains(value);
        }
    }

    @FuzzTest(maxDuration = "10m")
    void acceptedTemplatesResolveToValidSubjects(FuzzedDataProvider data) {
        TargetKind kind = data.consumeBoolean() ? TargetKind.NOTIFY : TargetKind.AUDIT;
        String text = template(data);
        SubjectTemplate template;
        if (text.isBlank() || ValueRule.SUBJECT.check(KEY, text).isPresent()) {
            return; // the config check refuses it before it is parsed (TargetValidator: notBlank, then the rule)
        }
        try {
            template = SubjectTemplate.parse(KEY, text, kind);
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).startsWith(KEY + ": ");
            return;
        }
        String bucket = data.consumeString(400);
        String object = data.consumeString(400);
        String eventName = data.consumeString(100);
        String targetId = data.consumeBoolean() ? TargetConfig.DEFAULT_ID : data.consumeString(70);

        String subject = template.resolve(bucket, object, eventName, targetId);
        assertThat(Validator.validateSubject(subject, true)).isEqualTo(subject);
        assertThat(subject.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(SubjectTemplate.MAX_SUBJECT_BYTES);
        assertThat(subject).doesNotContain("..").doesNotStartWith(".").doesNotEndWith(".");
        for (String token : subject.split("\\.", -1)) {
            assertThat(token).as("a token of %s", subject).isNotEmpty().isNotEqualTo("*").isNotEqualTo(">");
            assertThat(token.chars().noneMatch(c -> c <= ' ' || c == 0x7F)).as("no blank or control in %s", token).isTrue();
        }
        assertThat(captures(template.captureSpace(), subject))
            .as("%s lies in the capture space %s", subject, template.captureSpace()).isTrue();
        if (!template.hasPlaceholders()) {
            assertThat(subject).isEqualTo(text);
        }
        placeholdersDecode(text, subject, bucket, object, targetId);
    }

    /** Where the template has {@code {bucket}}, {@code {api}} or {@code {target}}, the token decodes to the value. */
    private static void placeholdersDecode(String text, String subject, String bucket, String object, String targetId) {
        String[] parts = text.split("\\.", -1);
        String[] tokens = subject.split("\\.", -1);
        int t = 0;
        for (String part : parts) {
            Optional<String> value = switch (part) {
                case "{bucket}" -> Optional.of(bucket);
                case "{api}" -> Optional.of(object);
                case "{target}" -> Optional.of(TargetConfig.DEFAULT_ID.equals(targetId) ? "" : targetId);
                default -> Optional.empty();
            };
            if (part.equals("{event}")) {
                t += 2;
                continue;
            }
            if (part.startsWith("{key_prefix")) {
                return; // the last token, 1 to N of them
            }
            String token = tokens[t++];
            if (value.isPresent() && !token.endsWith("~")) {
                assertThat(SubjectTemplate.decode(token)).contains(value.get());
            }
        }
        assertThat(t).as("tokens of %s", subject).isEqualTo(tokens.length);
    }

    /** A template: literal tokens and placeholders, sometimes spelled wrong. */
    private static String template(FuzzedDataProvider data) {
        int n = data.consumeInt(1, 6);
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int pick = data.consumeInt(0, PLACEHOLDERS.length + 1);
            if (pick < PLACEHOLDERS.length) {
                tokens.add(String.format(PLACEHOLDERS[pick], data.consumeInt(0, 10)));
            } else {
                tokens.add(data.consumeString(pick == PLACEHOLDERS.length ? 12 : 600));
            }
        }
        return String.join(".", tokens);
    }

    private static void assertToken(String token) {
        assertThat(token).isNotEmpty();
        assertThat(token.length()).isLessThanOrEqualTo(SubjectTemplate.MAX_TOKEN_CHARS);
        assertThat(token.chars().allMatch(c -> c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
            || c == '_' || c == '-' || c == '%' || c == '~')).as("token %s", token).isTrue();
        assertThat(token.indexOf('~')).as("~ only marks a cut, at the end").isIn(-1, token.length() - 1);
    }

    /** NATS filter matching: {@code *} is one token, a last {@code >} one or more. */
    private static boolean captures(String filter, String subject) {
        String[] f = filter.split("\\.", -1);
        String[] s = subject.split("\\.", -1);
        for (int i = 0; i < f.length; i++) {
            if (f[i].equals(">")) {
                return i == f.length - 1 && s.length > i;
            }
            if (i >= s.length || !(f[i].equals("*") || f[i].equals(s[i]))) {
                return false;
            }
        }
        return f.length == s.length;
    }

    private static String codeUnits(String s) {
        StringBuilder b = new StringBuilder();
        s.chars().limit(40).forEach(c -> b.append(String.format("\\u%04x", c)));
        return b.toString();
    }
}

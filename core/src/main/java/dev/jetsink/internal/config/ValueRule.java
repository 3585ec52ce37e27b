package dev.jetsink.internal.config;

import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The check one key applies to its own value, before any rule that looks at several keys.
 * Returns the error text, or empty when the value is acceptable. Messages never echo the value
 * of a secret key (the table only gives secrets {@link #TEXT}).
 */
@FunctionalInterface
public interface ValueRule {

    Optional<String> check(String keyName, String value);

    /** Any text. */
    ValueRule TEXT = (key, value) -> Optional.empty();

    /** on/off and the other accepted spellings. */
    ValueRule BOOLEAN = (key, value) -> BooleanValue.parse(value).isPresent()
        ? Optional.empty() : Optional.of(BooleanValue.invalid(key, value));

    /** An absolute file-system path. */
    ValueRule ABSOLUTE_PATH = (key, value) -> {
        try {
            return Path.of(value).isAbsolute() ? Optional.empty()
                : Optional.of(key + " must be an absolute path: " + value);
        } catch (RuntimeException e) {
            return Optional.of(key + " is not a valid path: " + value);
        }
    };

    /** Server list: {@code host:port} or comma-separated {@code nats://}/{@code tls://} URLs. */
    ValueRule ADDRESS = (key, value) -> ServerAddress.parse(value).isPresent() ? Optional.empty()
        : Optional.of(key + " must be host:port or a comma-separated list of nats:// or tls:// URLs"
            + " (without credentials): " + ServerAddress.redacted(value));

    /** A publish subject: no whitespace, no control characters, no wildcards, no empty tokens. */
    ValueRule SUBJECT = new ValueRule() {
        private final Pattern whitespace = Pattern.compile("\\s");

        @Override
        public Optional<String> check(String key, String value) {
            if (whitespace.matcher(value).find()) {
                return Optional.of(key + " must not contain whitespace: " + value);
            }
            // \s covers only space, tab, line breaks, VT and FF; a NUL or another control character
            // in a subject is a typo that would reach the stream. The value is not echoed: it holds one.
            for (int i = 0; i < value.length(); i++) {
                if (Character.isISOControl(value.charAt(i))) {
                    return Optional.of(key + " must not contain control characters; character " + (i + 1)
                        + " is U+" + String.format("%04X", (int) value.charAt(i)));
                }
            }
            if (value.contains("*") || value.contains(">")) {
                return Optional.of(key + " must not contain wildcards (*, >): " + value);
            }
            if (value.startsWith(".") || value.endsWith(".") || value.contains("..")) {
                return Optional.of(key + " must not have empty tokens: " + value);
            }
            return Optional.empty();
        }
    };

    /**
     * A stream name NATS accepts: no whitespace, {@code .}, {@code *} or {@code >}; also no path
     * separators, because the server turns the name into a directory.
     */
    ValueRule STREAM_NAME = (key, value) -> value.chars().anyMatch(c -> Character.isWhitespace(c)
            || c == '.' || c == '*' || c == '>' || c == '/' || c == '\\')
        ? Optional.of(key + " must not contain whitespace, '.', '*', '>', '/' or '\\': " + value)
        : Optional.empty();

    /**
     * A JetStream domain: one subject token (the server builds {@code $JS.<domain>.API} from it), so
     * no whitespace, dots or wildcards.
     */
    ValueRule JETSTREAM_DOMAIN = (key, value) -> value.chars().anyMatch(c -> Character.isWhitespace(c)
            || Character.isISOControl(c) || c == '.' || c == '*' || c == '>')
        ? Optional.of(key + " must be one token without whitespace, '.', '*' or '>': " + value)
        : Optional.empty();

    /**
     * A JetStream API prefix such as {@code $JS.hub.API}: a subject without wildcards; one trailing
     * dot is allowed, since jnats adds it anyway.
     */
    ValueRule JETSTREAM_API_PREFIX = (key, value) -> {
        String subject = value.endsWith(".") ? value.substring(0, value.length() - 1) : value;
        return subject.isEmpty() ? Optional.of(key + " must name a subject prefix such as $JS.hub.API: " + value)
            : SUBJECT.check(key, subject);
    };

    /** A whole number of at least {@code min}. */
    static ValueRule atLeast(long min) {
        return (key, value) -> {
            try {
                return Long.parseLong(value.trim()) >= min ? Optional.empty()
                    : Optional.of(key + " must be at least " + min + ": " + value);
            } catch (NumberFormatException e) {
                return Optional.of(key + " must be a whole number of at least " + min + ": " + value);
            }
        };
    }

    /**
     * A whole number in {@code [min, max]}; the message is the key followed by {@code saying},
     * e.g. {@code " must be between 1 and 4096"}, and never echoes the value.
     */
    static ValueRule intRange(int min, int max, String saying) {
        return (key, value) -> {
            try {
                int n = Integer.parseInt(value.trim());
                return n >= min && n <= max ? Optional.empty() : Optional.of(key + saying);
            } catch (NumberFormatException e) {
                return Optional.of(key + saying);
            }
        };
    }
}

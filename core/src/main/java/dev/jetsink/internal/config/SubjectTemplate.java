package dev.jetsink.internal.config;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A target's {@code SUBJECT} with placeholders (DESIGN.md "Routing"), resolved once per event at enqueue.
 *
 * <p>Placeholders are whole subject tokens: {@code {bucket}}, {@code {event}} (two tokens: the
 * event name without {@code s3:}, its parts joined by dots, e.g. {@code ObjectCreated.Put}),
 * {@code {key_prefix:N}} (notify only, last token only: the first 1 to N segments of the decoded
 * object key), {@code {api}} (audit only: the API name) and {@code {target}} (the target's id).
 *
 * <p>Every value becomes tokens by {@link #encode}: characters outside {@code [A-Za-z0-9_-]} are
 * percent-encoded as UTF-8 (an unpaired surrogate as the three bytes of its code unit, so it
 * survives), so a value never adds or splits tokens; the empty value is {@code _}
 * and a value that is exactly {@code _} is {@code %5F}, so {@link #decode} restores every value.
 * A token longer than {@value #MAX_TOKEN_CHARS} characters is cut and ends with {@code ~} (a
 * character the encoding never produces), which keeps subjects within the server's control line.
 *
 * <p>{@link #captureSpace()} is the subject space the template can produce: a {@code *} per
 * single-token placeholder, {@code *.*} for {@code {event}}, {@code >} for {@code {key_prefix}}.
 */
public final class SubjectTemplate {
    /** Longest encoded token; longer ones are cut and marked with {@code ~}. */
    public static final int MAX_TOKEN_CHARS = 240;
    /** Largest N of {@code {key_prefix:N}}. */
    public static final int MAX_KEY_SEGMENTS = 8;
    /**
     * Longest subject, in UTF-8 bytes, a template may yield in the worst case (every token at its
     * cut length): below the server's 4 KiB control line, which also carries the publish's other
     * fields, and below what a queue record stores.
     */
    public static final int MAX_SUBJECT_BYTES = 3500;

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_]+)(?::([0-9]+))?}");
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private enum Kind { LITERAL, BUCKET, EVENT, KEY_PREFIX, API, TARGET }

    private record Part(Kind kind, String literal, int segments) {
    }

    private final String text;
    private final List<Part> parts;

    private SubjectTemplate(String text, List<Part> parts) {
        this.text = text;
        this.parts = List.copyOf(parts);
    }

    /**
     * Parses {@code subject} for a target of {@code kind}. A subject without placeholders is a
     * template that always resolves to itself.
     *
     * @throws IllegalArgumentException naming the placeholder (or brace) that cannot yield a
     *                                  valid subject; the message starts with {@code key}
     */
    public static SubjectTemplate parse(String key, String subject, TargetKind kind) {
        List<Part> parts = new ArrayList<>();
        String[] tokens = subject.split("\\.", -1);
        for (int i = 0; i < tokens.length; i++) {
            String token = tokens[i];
            Matcher m = PLACEHOLDER.matcher(token);
            if (!m.matches()) {
                if (token.indexOf('{') >= 0 || token.indexOf('}') >= 0) {
                    throw new IllegalArgumentException(key + ": a placeholder must be a whole subject token,"
                        + " one of {bucket}, {event}, {key_prefix:N}, {api}, {target}: " + quote(token));
                }
                parts.add(new Part(Kind.LITERAL, token, 1));
                continue;
            }
            String name = m.group(1);
            String arg = m.group(2);
            Kind k = switch (name) {
                case "bucket" -> Kind.BUCKET;
                case "event" -> Kind.EVENT;
                case "key_prefix" -> Kind.KEY_PREFIX;
                case "api" -> Kind.API;
                case "target" -> Kind.TARGET;
                default -> throw new IllegalArgumentException(key + ": unknown placeholder {" + name
                    + "}; known: {bucket}, {event}, {key_prefix:N}, {api}, {target}");
            };
            if (k == Kind.KEY_PREFIX) {
                int n = arg == null ? -1 : parseSegments(arg);
                if (n < 1 || n > MAX_KEY_SEGMENTS) {
                    throw new IllegalArgumentException(key + ": {key_prefix:N} needs N between 1 and "
                        + MAX_KEY_SEGMENTS + ": " + quote(token));
                }
                if (kind == TargetKind.AUDIT) {
                    throw new IllegalArgumentException(key + ": {key_prefix:" + n + "} is for notify targets;"
                        + " audit entries have no object key (use {api} or {bucket})");
                }
                if (i != tokens.length - 1) {
                    throw new IllegalArgumentException(key + ": {key_prefix:" + n + "} must be the last token"
                        + " (it yields 1 to " + n + " tokens): " + quote(subject));
                }
                parts.add(new Part(k, "", n));
                continue;
            }
            if (arg != null) {
                throw new IllegalArgumentException(key + ": {" + name + "} takes no argument: " + quote(token));
            }
            if (k == Kind.API && kind != TargetKind.AUDIT) {
                throw new IllegalArgumentException(key + ": {api} is for audit targets (notify events have no API"
                    + " name; use {event})");
            }
            parts.add(new Part(k, "", k == Kind.EVENT ? 2 : 1));
        }
        // tokens made by encode are ASCII: a character is a byte
        int longest = parts.stream().mapToInt(p -> p.kind() == Kind.LITERAL
            ? p.literal().getBytes(StandardCharsets.UTF_8).length
            : p.segments() * (MAX_TOKEN_CHARS + 1)).sum() + parts.size() - 1;
        if (longest > MAX_SUBJECT_BYTES) {
            throw new IllegalArgumentException(key + ": the template can yield subjects of " + longest
                + " bytes, over the " + MAX_SUBJECT_BYTES + " a NATS publish allows; use fewer placeholders,"
                + " a shorter literal or a smaller {key_prefix:N}");
        }
        return new SubjectTemplate(subject, parts);
    }

    /**
     * Parses a subject given without its target (stream-plan's {@code --subject}): a template
     * with {@code {api}} is an audit target's, any other a notify target's.
     */
    public static SubjectTemplate parseForEitherKind(String key, String subject) {
        return parse(key, subject, subject.contains("{api}") ? TargetKind.AUDIT : TargetKind.NOTIFY);
    }

    private static int parseSegments(String arg) {
        try {
            return Integer.parseInt(arg);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Whether any placeholder appears; a plain subject needs nothing stored per entry. */
    public boolean hasPlaceholders() {
        return parts.stream().anyMatch(p -> p.kind() != Kind.LITERAL);
    }

    /**
     * Whether some of this template's subjects name one object alone: it has {@code {bucket}}, ends
     * in {@code {key_prefix:N}} and has no {@code {event}} (which differs between events of an
     * object). Which subjects do is {@link #namesObject}.
     */
    public boolean namesObjects() {
        boolean bucket = parts.stream().anyMatch(p -> p.kind() == Kind.BUCKET);
        boolean event = parts.stream().anyMatch(p -> p.kind() == Kind.EVENT);
        return bucket && !event && parts.get(parts.size() - 1).kind() == Kind.KEY_PREFIX;
    }

    /**
     * Whether the subject of object {@code key} in {@code bucket} is that object's alone: the
     * template {@link #namesObjects()}, the key has fewer than N segments (a key of N yields the
     * same N tokens as the keys below it: {@code a/b} and {@code a/b/c} under
     * {@code {key_prefix:2}}) and no token was cut (the encoding restores every value, so two
     * objects then never share a subject).
     */
    public boolean namesObject(String bucket, String key) {
        if (!namesObjects()) {
            return false;
        }
        int segments = 1;
        for (int i = key.indexOf('/'); i >= 0; i = key.indexOf('/', i + 1)) {
            segments++;
        }
        // a key of N segments or more yields N tokens, as every deeper key under it does
        if (segments >= parts.get(parts.size() - 1).segments() || cut(bucket)) {
            return false;
        }
        for (String segment : key.split("/", -1)) {
            if (cut(segment)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@link #encode} cuts {@code value} (and marks it with {@code ~}). */
    private static boolean cut(String value) {
        // a UTF-16 unit becomes at most 9 characters (3 bytes, each %XX): shorter values are never cut
        return value.length() * 9 > MAX_TOKEN_CHARS && encode(value).endsWith("~");
    }

    /** The subject as configured. */
    public String text() {
        return text;
    }

    /**
     * The subject for one event of target {@code targetId}, from the event's bucket, object key
     * (the API name for audit) and event name.
     */
    public String resolve(String bucket, String object, String eventName, String targetId) {
        StringBuilder b = new StringBuilder(text.length() + 32);
        for (Part p : parts) {
            if (!b.isEmpty()) {
                b.append('.');
            }
            switch (p.kind()) {
                case LITERAL -> b.append(p.literal());
                case BUCKET -> b.append(encode(bucket));
                case API -> b.append(encode(object));
                case TARGET -> b.append(encode(TargetConfig.DEFAULT_ID.equals(targetId) ? "" : targetId));
                case EVENT -> appendEvent(b, eventName);
                case KEY_PREFIX -> appendKeyPrefix(b, object, p.segments());
                default -> throw new IllegalStateException(p.kind().name());
            }
        }
        return b.toString();
    }

    private static void appendEvent(StringBuilder b, String eventName) {
        String name = eventName.startsWith("s3:") ? eventName.substring(3) : eventName;
        int colon = name.indexOf(':');
        if (colon < 0) {
            b.append(encode(name)).append(".").append(encode(""));
        } else {
            b.append(encode(name.substring(0, colon))).append('.').append(encode(name.substring(colon + 1)));
        }
    }

    private static void appendKeyPrefix(StringBuilder b, String key, int n) {
        String[] segments = key.split("/", -1);
        int count = Math.min(n, segments.length);
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                b.append('.');
            }
            b.append(encode(segments[i]));
        }
    }

    /**
     * The subjects this template can produce, as one subject filter: each single-token
     * placeholder a {@code *}, {@code {event}} {@code *.*}, {@code {key_prefix:N}} {@code >}.
     */
    public String captureSpace() {
        StringBuilder b = new StringBuilder();
        for (Part p : parts) {
            if (!b.isEmpty()) {
                b.append('.');
            }
            switch (p.kind()) {
                case LITERAL -> b.append(p.literal());
                case EVENT -> b.append("*.*");
                case KEY_PREFIX -> b.append('>');
                default -> b.append('*');
            }
        }
        return b.toString();
    }

    /** One value as subject tokens' text: see the class comment. Never empty, never contains a dot. */
    public static String encode(String value) {
        if (value.isEmpty()) {
            return "_";
        }
        if (value.equals("_")) {
            return "%5F";
        }
        StringBuilder b = new StringBuilder(value.length() + 8);
        int cut = 0; // where the token ends if it must be cut: after a whole character, room for the mark
        for (int i = 0; i < value.length() && b.length() <= MAX_TOKEN_CHARS; ) {
            int cp = value.codePointAt(i); // an unpaired surrogate comes back as itself
            i += Character.charCount(cp);
            if (cp < 0x80) {
                appendByte(b, cp);
            } else if (cp < 0x800) {
                appendByte(b, 0xC0 | cp >> 6);
                appendByte(b, 0x80 | cp & 0x3F);
            } else if (cp < 0x10000) {
                // an unpaired surrogate gets the three bytes of its code unit (ED A0..BF xx), which
                // UTF-8 text never contains, so decode gives it back instead of a '?'
                appendByte(b, 0xE0 | cp >> 12);
                appendByte(b, 0x80 | cp >> 6 & 0x3F);
                appendByte(b, 0x80 | cp & 0x3F);
            } else {
                appendByte(b, 0xF0 | cp >> 18);
                appendByte(b, 0x80 | cp >> 12 & 0x3F);
                appendByte(b, 0x80 | cp >> 6 & 0x3F);
                appendByte(b, 0x80 | cp & 0x3F);
            }
            if (b.length() <= MAX_TOKEN_CHARS - 1) {
                cut = b.length();
            }
        }
        if (b.length() <= MAX_TOKEN_CHARS) {
            return b.toString();
        }
        b.setLength(cut);
        return b.append('~').toString();
    }

    private static void appendByte(StringBuilder b, int c) {
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-') {
            b.append((char) c);
        } else {
            b.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
        }
    }

    /**
     * The value {@link #encode} made {@code token} from; empty for a token cut with {@code ~}.
     * Bytes that encode cannot have produced (a malformed escape or UTF-8 sequence) become
     * U+FFFD.
     */
    public static Optional<String> decode(String token) {
        if (token.endsWith("~")) {
            return Optional.empty();
        }
        if (token.equals("_")) {
            return Optional.of("");
        }
        byte[] bytes = new byte[token.length()];
        int n = 0;
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            int hex = c == '%' && i + 2 < token.length() ? hexByte(token.charAt(i + 1), token.charAt(i + 2)) : -1;
            if (hex >= 0) {
                bytes[n++] = (byte) hex;
                i += 2;
            } else {
                bytes[n++] = (byte) c;
            }
        }
        return Optional.of(utf8WithSurrogates(bytes, n));
    }

    private static int hexByte(char high, char low) {
        int h = Character.digit(high, 16);
        int l = Character.digit(low, 16);
        return h < 0 || l < 0 ? -1 : h << 4 | l;
    }

    /** UTF-8 that also takes a surrogate's three bytes back to the lone code unit encode wrote. */
    private static String utf8WithSurrogates(byte[] bytes, int n) {
        StringBuilder out = new StringBuilder(n);
        int i = 0;
        while (i < n) {
            int b0 = bytes[i] & 0xFF;
            int length = b0 < 0x80 ? 1 : b0 >= 0xC2 && b0 < 0xE0 ? 2 : b0 >= 0xE0 && b0 < 0xF0 ? 3
                : b0 >= 0xF0 && b0 < 0xF5 ? 4 : 0;
            int cp = length == 1 ? b0 : b0 & (0x7F >> length);
            boolean valid = length > 0 && i + length <= n;
            for (int k = 1; valid && k < length; k++) {
                int bk = bytes[i + k] & 0xFF;
                valid = (bk & 0xC0) == 0x80;
                cp = cp << 6 | bk & 0x3F;
            }
            valid = valid && !(length == 3 && cp < 0x800) && !(length == 4 && (cp < 0x10000 || cp > 0x10FFFF));
            if (valid) {
                out.appendCodePoint(cp);
                i += length;
            } else {
                out.append('\uFFFD');
                i++;
            }
        }
        return out.toString();
    }

    private static String quote(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }

    @Override
    public String toString() {
        return text;
    }
}

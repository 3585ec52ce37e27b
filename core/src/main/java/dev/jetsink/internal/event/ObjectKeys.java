package dev.jetsink.internal.event;

import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The form encoding S3 event records use for object keys: {@code +} for space, {@code %XX} for
 * other reserved bytes of the UTF-8 key ("my photo.jpg" is sent as "my+photo.jpg").
 */
public final class ObjectKeys {
    private ObjectKeys() {
    }

    /**
     * The decoded key, or {@code encoded} itself when it is not a valid encoding (a stray
     * {@code %}, a bad hex digit, or escapes that do not spell UTF-8). Keeping the raw key means
     * an odd key from a store still gets delivered and still names its object recognisably.
     */
    public static String decode(String encoded) {
        if (encoded.indexOf('%') < 0 && encoded.indexOf('+') < 0) {
            return encoded;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '+') {
                bytes.write(' ');
            } else if (c == '%') {
                if (i + 2 >= encoded.length()) {
                    return encoded;
                }
                int hi = Character.digit(encoded.charAt(i + 1), 16);
                int lo = Character.digit(encoded.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return encoded;
                }
                bytes.write(hi << 4 | lo);
                i += 2;
            } else {
                byte[] literal = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < encoded.length()) {
                    literal = encoded.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                bytes.writeBytes(literal);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            return encoded;
        }
    }

    /** The encoding RustFS applies (form encoding of the UTF-8 bytes; {@code /} becomes {@code %2F}). */
    public static String encode(String decoded) {
        return URLEncoder.encode(decoded, StandardCharsets.UTF_8);
    }
}

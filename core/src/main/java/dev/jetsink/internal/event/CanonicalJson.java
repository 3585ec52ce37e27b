package dev.jetsink.internal.event;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The canonical form of a JSON value, the identity of an event (DESIGN.md "Msg ids"): object members sorted
 * by name (Java {@code String} order, UTF-16 code units), arrays in order, no insignificant
 * whitespace, strings in Jackson's minimal escaping, numbers with the digits they arrived with
 * ({@link JsonBody} keeps decimals exact, trailing zeros included). Two
 * records differing in any field differ here; the same record sent again, with its members in
 * another order or other whitespace, does not.
 */
public final class CanonicalJson {

    private CanonicalJson() {
    }

    /** SHA-256 of the canonical form of {@code value}, hashed as it is written (no copy of the bytes). */
    public static byte[] sha256(JsonNode value) {
        MessageDigest digest = sha256();
        JsonBody.writeTo(new DigestSink(digest), gen -> JsonBody.writeNode(gen, value, true));
        return digest.digest();
    }

    /** The canonical bytes of {@code value}. */
    public static byte[] bytes(JsonNode value) {
        return JsonBody.write(gen -> JsonBody.writeNode(gen, value, true));
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** Feeds what the generator writes (in its own buffer-sized pieces) to a digest. */
    private static final class DigestSink extends OutputStream {
        private final MessageDigest digest;

        DigestSink(MessageDigest digest) {
            this.digest = digest;
        }

        @Override
        public void write(int b) {
            digest.update((byte) b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            digest.update(b, off, len);
        }
    }
}

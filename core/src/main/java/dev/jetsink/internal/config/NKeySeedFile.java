package dev.jetsink.internal.config;

import io.nats.client.NKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * The file {@code nkey_seed_file} names: an NKey user seed ({@code SU...}, 58 characters) and
 * nothing else but surrounding whitespace, as {@code nk -gen user} writes it. The validator checks
 * it when the configuration is read and the connection factory reads it again for every new
 * connection. What goes wrong is said in words about the file; neither the seed nor any part of
 * the file's content ever appears in a message.
 */
public final class NKeySeedFile {

    /** Far above a seed's 58 characters: a larger file is the wrong file, and is not read whole. */
    static final long MAX_BYTES = 4096;

    private NKeySeedFile() {
    }

    /** A seed file that cannot be used; the message names the file, never its content. */
    public static final class Unusable extends IOException {
        private static final long serialVersionUID = 1L;

        Unusable(String message) {
            super(message, null);
        }
    }

    /**
     * What is wrong with {@code file}, as a phrase to follow the key's name, e.g.
     * {@code "file does not exist: /etc/jetsink/user.nk"}; empty when it holds a user seed.
     */
    public static Optional<String> problem(Path file) {
        try {
            Arrays.fill(read(file), '\0');
            return Optional.empty();
        } catch (Unusable e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * The user seed in {@code file}; the caller clears the array once jnats has it.
     *
     * @throws Unusable if the file is missing, unreadable, too large or holds no user seed
     */
    public static char[] read(Path file) throws Unusable {
        if (!Files.exists(file)) {
            throw new Unusable("file does not exist: " + file);
        }
        if (!Files.isRegularFile(file)) {
            throw new Unusable("is not a regular file: " + file);
        }
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new Unusable("file is larger than " + MAX_BYTES + " bytes, so it is not an NKey seed: " + file);
            }
            bytes = Files.readAllBytes(file);
        } catch (Unusable e) {
            throw e;
        } catch (IOException | SecurityException e) {
            throw new Unusable("file is not readable: " + file);
        }
        char[] seed = trimmed(bytes);
        Arrays.fill(bytes, (byte) 0);
        NKey key;
        try {
            key = NKey.fromSeed(seed);
        } catch (RuntimeException e) {
            // jnats' message could quote the text; only the fact is kept
            Arrays.fill(seed, '\0');
            throw new Unusable("file does not hold an NKey seed (a line starting SU): " + file);
        }
        NKey.Type type = key.getType();
        key.clear();
        if (type != NKey.Type.USER) {
            Arrays.fill(seed, '\0');
            throw new Unusable("file holds an NKey seed of type " + type + ", not a user seed (SU...): " + file);
        }
        return seed;
    }

    private static char[] trimmed(byte[] bytes) {
        int from = 0;
        int to = bytes.length;
        while (from < to && Character.isWhitespace(bytes[from])) {
            from++;
        }
        while (to > from && Character.isWhitespace(bytes[to - 1])) {
            to--;
        }
        char[] out = new char[to - from];
        for (int i = from; i < to; i++) {
            out[i - from] = (char) (bytes[i] & 0xff);
        }
        return out;
    }
}

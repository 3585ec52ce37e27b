package dev.jetsink.internal.nats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * What the TLS files looked like when a connection was built, so a target can notice rotated
 * certificates and reconnect with the new material (the {@link javax.net.ssl.SSLContext} is built
 * once per connection). Each file is recorded by existence, modification time, size and a SHA-256 of
 * its content: a rotation that keeps the mtime (coarse file-system clocks, {@code cp -p}) is still
 * seen. The digest is never printed.
 *
 * @param files one entry per path, in the given order
 */
public record TlsMaterialStamp(List<FileStamp> files) {

    /** Copies the list. */
    public TlsMaterialStamp {
        files = List.copyOf(files);
    }

    /**
     * One file's state.
     *
     * @param path         the file
     * @param exists       whether it could be read
     * @param lastModified modification time in epoch milliseconds, 0 when missing
     * @param size         size in bytes, -1 when missing
     * @param digest       SHA-256 of the content, empty when missing
     */
    public record FileStamp(Path path, boolean exists, long lastModified, long size, byte[] digest) {
        /** Copies the digest. */
        public FileStamp {
            digest = digest.clone();
        }

        @Override
        public byte[] digest() {
            return digest.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof FileStamp other && path.equals(other.path) && exists == other.exists
                    && lastModified == other.lastModified && size == other.size
                    && Arrays.equals(digest, other.digest);
        }

        @Override
        public int hashCode() {
            return path.hashCode() * 31 + Long.hashCode(lastModified);
        }

        @Override
        public String toString() {
            return exists ? path + "@" + lastModified + "(" + size + " bytes)" : path + "(missing)";
        }
    }

    /** Reads the current state of the given files; unreadable files are recorded as missing. */
    public static TlsMaterialStamp of(Collection<Path> paths) {
        return new TlsMaterialStamp(paths.stream().map(TlsMaterialStamp::stamp).toList());
    }

    /** Whether any file differs from {@code earlier} (appeared, vanished, touched or rewritten). */
    public boolean changedSince(TlsMaterialStamp earlier) {
        return !files.equals(earlier.files);
    }

    private static FileStamp stamp(Path path) {
        try {
            long modified = Files.getLastModifiedTime(path).toMillis();
            byte[] content = Files.readAllBytes(path);
            return new FileStamp(path, true, modified, content.length,
                    MessageDigest.getInstance("SHA-256").digest(content));
        } catch (IOException e) {
            return new FileStamp(path, false, 0, -1, new byte[0]);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}

package dev.jetsink.internal.failed;

import dev.jetsink.internal.failed.FailedEventStore.StoredFile;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the failed store names its files ({@code <failed_at ms>-<msg id>.json}) and finds them again:
 * the names carry what listing, trimming and expiry need, so a scan reads no file.
 */
final class FailedFileNames {

    /** A dot prefix keeps in-flight writes out of the name pattern and out of {@code ls}. */
    static final String TEMP_PREFIX = ".tmp-";
    private static final Pattern NAME = Pattern.compile("(\\d{1,18})-(.+)\\.json");
    private static final Pattern UNSAFE = Pattern.compile("[^A-Za-z0-9._-]");
    private static final int MAX_ID_IN_NAME = 200;
    private static final Comparator<StoredFile> OLDEST_FIRST =
            Comparator.comparing(StoredFile::failedAt).thenComparing(StoredFile::fileName);

    private FailedFileNames() {
    }

    /** An empty set ordered oldest first. */
    static TreeSet<StoredFile> oldestFirst() {
        return new TreeSet<>(OLDEST_FIRST);
    }

    /** The records in {@code dir} by name, oldest first; other files are neither counted nor touched. */
    static TreeSet<StoredFile> scan(Path dir, boolean removeTemporaries) throws IOException {
        TreeSet<StoredFile> found = oldestFirst();
        if (Files.notExists(dir)) {
            return found;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                if (name.startsWith(TEMP_PREFIX)) {
                    // Only reached when no write is in flight (the guard is held or at open):
                    // a leftover of an interrupted write, never a visible record.
                    if (removeTemporaries) {
                        Files.deleteIfExists(p);
                    }
                    continue;
                }
                parseName(p).ifPresent(found::add);
            }
        }
        return found;
    }

    private static Optional<StoredFile> parseName(Path p) {
        Matcher m = NAME.matcher(p.getFileName().toString());
        if (!m.matches()) {
            return Optional.empty(); // not ours: neither counted nor expired
        }
        return Optional.of(new StoredFile(p, Instant.ofEpochMilli(Long.parseLong(m.group(1))), m.group(2)));
    }

    /** The file name of {@code record}. */
    static String of(FailedRecord record) {
        return String.format("%013d-%s.json", record.failedAt().toEpochMilli(), safeId(record.natsMsgId()));
    }

    static String safeId(String msgId) {
        String safe = UNSAFE.matcher(msgId).replaceAll("_");
        return safe.length() > MAX_ID_IN_NAME ? safe.substring(0, MAX_ID_IN_NAME) : safe;
    }
}

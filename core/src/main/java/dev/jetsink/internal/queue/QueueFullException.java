package dev.jetsink.internal.queue;

import java.nio.file.Path;

/**
 * A queue refused new entries because its live entries (plus capacity already reserved) would
 * exceed {@code queue_limit}. Nothing queued was overwritten or evicted.
 */
public final class QueueFullException extends RuntimeException {
    private final transient Path directory;
    private final long limit;

    public QueueFullException(Path directory, long limit, long live, int requested) {
        super("queue " + directory + " is full: " + live + " live or reserved entries, queue_limit " + limit
            + ", " + requested + " more requested");
        this.directory = directory;
        this.limit = limit;
    }

    /** The queue directory that is full. */
    public Path directory() {
        return directory;
    }

    /** The configured {@code queue_limit}. */
    public long limit() {
        return limit;
    }
}

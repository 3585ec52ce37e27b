package dev.jetsink;

import java.nio.file.Path;

/**
 * A send was refused because the queue holds as many events as its limit allows (live entries
 * plus room already reserved). Nothing already queued was overwritten or evicted; the event was
 * not queued, so the caller may retry it once deliveries have made room.
 */
public final class QueueFullException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Path directory;
    /** The queue's limit in events. */
    private final long limit;

    /**
     * An exception for a full queue.
     *
     * @param directory the queue directory
     * @param limit     the queue's limit in events
     * @param live      live or reserved entries at the time of the refusal
     * @param requested entries the refused call asked for
     */
    public QueueFullException(Path directory, long limit, long live, int requested) {
        super("queue " + directory + " is full: " + live + " live or reserved entries, queue_limit " + limit
            + ", " + requested + " more requested");
        this.directory = directory;
        this.limit = limit;
    }

    /**
     * The queue directory that is full.
     *
     * @return the directory
     */
    public Path directory() {
        return directory;
    }

    /**
     * The queue's limit in events.
     *
     * @return the limit
     */
    public long limit() {
        return limit;
    }
}

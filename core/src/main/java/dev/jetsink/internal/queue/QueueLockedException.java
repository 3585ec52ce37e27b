package dev.jetsink.internal.queue;

import java.nio.file.Path;

/** Another process (or another open store in this one) holds the queue's {@code LOCK} file. */
public final class QueueLockedException extends QueueStoreException {
    private final transient Path lockFile;

    public QueueLockedException(Path lockFile, String holder) {
        super("queue is in use by another process: " + lockFile + " is locked" + (holder.isEmpty() ? "" : " by " + holder)
            + " (stop the other jetsink first)");
        this.lockFile = lockFile;
    }

    /** The lock file another holder keeps locked. */
    public Path lockFile() {
        return lockFile;
    }
}

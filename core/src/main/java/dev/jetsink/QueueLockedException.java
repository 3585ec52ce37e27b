package dev.jetsink;

import java.nio.file.Path;

/**
 * The queue directory is in use: another process (or another open sink or daemon target in this
 * one) holds its {@code LOCK} file. Thrown when a sink is built; stop the other holder first.
 */
public final class QueueLockedException extends QueueStoreException {
    private static final long serialVersionUID = 1L;

    private final transient Path lockFile;

    /**
     * An exception naming the lock file and, when known, its holder.
     *
     * @param lockFile the lock file another holder keeps locked
     * @param holder   who holds it (e.g. a process id), or empty when unknown
     */
    public QueueLockedException(Path lockFile, String holder) {
        super("queue is in use by another process: " + lockFile + " is locked" + (holder.isEmpty() ? "" : " by " + holder)
            + " (stop the other jetsink first)");
        this.lockFile = lockFile;
    }

    /**
     * The lock file another holder keeps locked.
     *
     * @return the lock file
     */
    public Path lockFile() {
        return lockFile;
    }
}

package dev.jetsink;

import java.nio.file.Path;

/**
 * The queue directory is in use: another process (or another open sink or target in this
 * one) holds its {@code LOCK} file. Thrown when a sink is built; stop the other holder first.
 */
public final class QueueLockedException extends QueueStoreException {
    private static final long serialVersionUID = 1L;

    private final transient Path lockFile;

    /**
     * An exception naming the lock file and, when known, its holder.
     *
     * @param lockFile the lock file another holder keeps locked
     * @param holder   who holds it ({@code pid <n>}, as the lock file says), or empty when unknown; this
     *                 process's own pid makes the message say so
     */
    public QueueLockedException(Path lockFile, String holder) {
        super(holder.equals("pid " + ProcessHandle.current().pid())
            ? "queue is in use in this process: " + lockFile + " is held by another open sink or target"
                + " (close it first, or give each sink its own queue directory)"
            : "queue is in use by another process: " + lockFile + " is locked" + (holder.isEmpty() ? "" : " by " + holder)
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

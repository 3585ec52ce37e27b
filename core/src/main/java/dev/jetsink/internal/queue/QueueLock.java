package dev.jetsink.internal.queue;

import dev.jetsink.QueueStoreException;

import dev.jetsink.QueueLockedException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The {@code LOCK} file of a queue directory, held with an exclusive OS file lock for as long as
 * the queue is open. The holder writes its pid into it so the error a second opener gets can name
 * both the file and the process.
 */
final class QueueLock {
    private final FileChannel channel;
    private final FileLock lock;

    private QueueLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static QueueLock acquire(Path dir) {
        Path file = dir.resolve("LOCK");
        FileChannel ch = null;
        try {
            Files.createDirectories(dir);
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock l;
            try {
                l = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                l = null;
            }
            if (l == null) {
                String holder = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).trim();
                ch.close();
                throw new QueueLockedException(file, holder);
            }
            ch.truncate(0);
            ch.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)), 0);
            return new QueueLock(ch, l);
        } catch (IOException e) {
            SegmentFiles.closeQuietly(ch);
            // the exception's class says what went wrong: a NoSuchFileException's message is only the path
            throw new QueueStoreException("cannot lock queue " + file + ": " + e.getClass().getSimpleName() + ": "
                + e.getMessage(), e);
        }
    }

    void release() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel below releases it anyway
        }
        SegmentFiles.closeQuietly(channel);
    }
}

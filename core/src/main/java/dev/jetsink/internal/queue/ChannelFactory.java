package dev.jetsink.internal.queue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;

/**
 * Opens the file channels a queue (and an ordered target's sequences table beside it) writes
 * through. Production uses {@link #DEFAULT}; tests replace it with a wrapper that fails writes or
 * forces, to prove that a failed fsync is never acknowledged.
 */
@FunctionalInterface
public interface ChannelFactory {
    ChannelFactory DEFAULT = (path, options) -> FileChannel.open(path, options);

    FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException;
}

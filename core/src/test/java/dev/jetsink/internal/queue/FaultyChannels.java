package dev.jetsink.internal.queue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A {@link ChannelFactory} whose segment channels fail the next N forces, writes or truncates on demand,
 * the way a full or failing disk does.
 */
public final class FaultyChannels implements ChannelFactory {
    public final AtomicInteger failForces = new AtomicInteger();
    final AtomicInteger failWrites = new AtomicInteger();
    /** Writes that put half their bytes on disk and then fail, as ENOSPC does when the disk fills mid-write. */
    final AtomicInteger halfWrites = new AtomicInteger();
    /** Writes of zeros only (the writer's write-ahead) that put half their bytes on disk and then fail. */
    final AtomicInteger failZeroWrites = new AtomicInteger();
    /** Writes of zeros only seen so far. */
    final AtomicInteger zeroWrites = new AtomicInteger();
    /** Truncates that fail (EIO), so a failed write cannot be cut off at once. */
    final AtomicInteger failTruncates = new AtomicInteger();

    /** Which files' channels fail: by file name. */
    private final Predicate<String> names;

    /** Fails the queue's segment channels. */
    FaultyChannels() {
        this(name -> name.endsWith(".log") || name.endsWith(".log.tmp"));
    }

    /** Fails the channels of the files {@code names} accepts. */
    public FaultyChannels(Predicate<String> names) {
        this.names = names;
    }

    @Override
    public FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
        FileChannel real = FileChannel.open(path, options);
        return names.test(path.getFileName().toString()) ? new Faulty(real) : real;
    }

    private final class Faulty extends FileChannel {
        private final FileChannel d;

        Faulty(FileChannel d) {
            this.d = d;
        }

        private void maybeFailWrite() throws IOException {
            if (failWrites.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new IOException("injected write failure (No space left on device)");
            }
        }

        @Override
        public void force(boolean metaData) throws IOException {
            if (failForces.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new IOException("injected fsync failure (Input/output error)");
            }
            d.force(metaData);
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            if (zerosOnly(src)) {
                zeroWrites.incrementAndGet();
                if (failZeroWrites.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    ByteBuffer half = src.duplicate();
                    half.limit(src.position() + src.remaining() / 2);
                    d.write(half, position);
                    throw new IOException("injected write failure after half the zeros (No space left on device)");
                }
            }
            maybeFailWrite();
            if (halfWrites.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                ByteBuffer half = src.duplicate();
                half.limit(src.position() + src.remaining() / 2);
                d.write(half, position);
                throw new IOException("injected write failure after half the bytes (No space left on device)");
            }
            return d.write(src, position);
        }

        private static boolean zerosOnly(ByteBuffer src) {
            for (int i = src.position(); i < src.limit(); i++) {
                if (src.get(i) != 0) {
                    return false;
                }
            }
            return src.hasRemaining();
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            maybeFailWrite();
            return d.write(src);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            maybeFailWrite();
            return d.write(srcs, offset, length);
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return d.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return d.read(dsts, offset, length);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return d.read(dst, position);
        }

        @Override
        public long position() throws IOException {
            return d.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            d.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return d.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            if (failTruncates.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new IOException("injected truncate failure (Input/output error)");
            }
            d.truncate(size);
            return this;
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return d.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            return d.transferFrom(src, position, count);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            return d.map(mode, position, size);
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return d.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return d.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            d.close();
        }
    }
}

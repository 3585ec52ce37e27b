package dev.jetsink.internal.queue;

import dev.jetsink.QueueLockedException;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Child-JVM body of {@link QueueCrashTest}: appends from several threads and prints one
 * {@code ACK <seq> <msgId> <object>} line per acknowledged append, until it is killed. Every fifth
 * acknowledged entry is resolved. Mode {@code lock} instead tries to open a queue another process
 * holds and prints the error.
 */
public final class CrashingAppender {
    private CrashingAppender() {
    }

    /** The payload a producer submits for {@code object}: derived from the name, 40..3000 bytes. */
    static byte[] payloadFor(String object) {
        SplittableRandom r = new SplittableRandom(object.hashCode());
        int len = 40 + r.nextInt(2960);
        byte[] b = new byte[len];
        byte[] head = (object + ":").getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < len; i++) {
            b[i] = i < head.length ? head[i] : (byte) ('a' + r.nextInt(26));
        }
        return b;
    }

    static EventMetadata metaFor(String object) {
        return new EventMetadata(TargetKind.AUDIT, "bucket", object, "s3:ObjectCreated:Put", "text/plain");
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false,
            StandardCharsets.UTF_8);
        if (args[1].equals("lock")) {
            try {
                SegmentedQueue.open(dir, QueueOptions.withLimit(10)).close();
                out.println("OPENED");
            } catch (QueueLockedException e) {
                out.println("LOCKED " + e.getMessage());
            }
            out.flush();
            return;
        }
        String run = args[1];
        int threads = Integer.parseInt(args[2]);
        SegmentedQueue q = SegmentedQueue.open(dir, QueueOptions.withLimit(10_000_000).withSegmentMaxRecords(64));
        synchronized (out) {
            out.println("READY");
            out.flush();
        }
        for (int t = 0; t < threads; t++) {
            int tt = t;
            Thread th = new Thread(() -> {
                for (int n = 0; ; n++) {
                    String object = run + "-t" + tt + "-n" + n;
                    QueuedEntry e = q.append(metaFor(object), payloadFor(object)).join();
                    synchronized (out) {
                        out.println("ACK " + e.seq() + " " + e.msgId() + " " + object);
                        out.flush();
                    }
                    if (n % 5 == 0) {
                        q.resolve(e.seq());
                    }
                }
            });
            th.start();
        }
        Thread.sleep(60_000);
        System.exit(3);
    }
}

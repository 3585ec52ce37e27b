package dev.jetsink.internal.delivery;

import dev.jetsink.internal.config.TargetKind;
import dev.jetsink.internal.event.EventMetadata;
import dev.jetsink.internal.queue.EntryAttributes;
import dev.jetsink.internal.queue.QueuedEntry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The dispatcher's own cost per event of per-object order ({@code ORDER=key}), without NATS or a
 * queue: a {@link KeyOrder} with its {@link KeySequences} table in a temp dir, driven as the
 * dispatcher drives it (admit; the number at publish; settled at the ack, the released entry of its
 * key admitted again), {@value #WINDOW} entries in flight. Two spreads: every event a new object
 * (the table grows to its largest and forgets its older half), and {@value #HOT_KEYS} hot objects
 * picked at random. Each event's entry is made fresh, outside the timed part, with its own key
 * string (as decoded from a queue record); between blocks of {@value #BLOCK} events the table is
 * forced, untimed, as the queue's upkeep thread does.
 *
 * <p>Reports per event: ns, of which the steady path (the median block) and the rest (mostly
 * table rewrites, whose longest stall is shown), and allocated bytes (the thread's counter: exact
 * where time is noisy), with the CPU pressure ({@code /proc/pressure/cpu} some avg10) read beside
 * it. It lives in core's tests for the package's own types. Run from the repository root:
 * <pre>
 * mvn -B -ntp -o -q -pl testkit,core test-compile
 * java -cp core/target/classes:core/target/test-classes:$HOME/.m2/repository/org/slf4j/slf4j-api/2.0.17/slf4j-api-2.0.17.jar \
 *   dev.jetsink.internal.delivery.OrderPathBench [events, default 2000000] [rounds, default 3]
 * </pre>
 */
public final class OrderPathBench {
    private static final int WINDOW = 256;
    private static final int BLOCK = 4096;
    private static final int HOT_KEYS = 1000;
    private static final EventMetadata METADATA = new EventMetadata(TargetKind.NOTIFY, "photos", "unused",
        "s3:ObjectCreated:Put", "");
    private static final RetrySchedule RETRIES = new RetrySchedule(1.0);

    private OrderPathBench() {
    }

    public static void main(String[] args) throws IOException {
        int events = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        run(false, Math.min(events, 300_000), true);
        run(true, Math.min(events, 300_000), true);
        for (int round = 1; round <= rounds; round++) {
            System.out.printf("round %d, %d events on distinct objects: %s%n", round, events, run(false, events, false));
            System.out.printf("round %d, %d events on %d hot objects: %s%n", round, events, HOT_KEYS, run(true, events, false));
        }
    }

    /** One pass over a new table; the figures as text. */
    private static String run(boolean hot, int events, boolean warmUp) throws IOException {
        Path dir = Files.createTempDirectory("order-path-bench");
        try {
            KeyOrder order = KeyOrder.open(dir, 1);
            Driver d = new Driver(order);
            Random random = new Random(42);
            long[] blockNanos = new long[(events + BLOCK - 1) / BLOCK];
            long nanos = 0;
            long bytes = 0;
            PendingEntry[] block = new PendingEntry[BLOCK];
            for (int from = 0, b = 0; from < events; from += BLOCK, b++) {
                int n = Math.min(BLOCK, events - from);
                for (int i = 0; i < n; i++) {
                    int object = hot ? random.nextInt(HOT_KEYS) : from + i;
                    block[i] = entry(from + i + 1, object);
                }
                long a0 = allocated();
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    d.take(block[i]);
                }
                if (from + n == events) {
                    d.drain();
                }
                long t = System.nanoTime() - t0;
                bytes += allocated() - a0;
                nanos += t;
                blockNanos[b] = t * BLOCK / n;
                order.close(); // the queue's upkeep thread forces the numbers before the resolutions
            }
            if (warmUp) {
                return "";
            }
            long[] sorted = blockNanos.clone();
            Arrays.sort(sorted);
            double steady = sorted[sorted.length / 2] / (double) BLOCK;
            double total = nanos / (double) events;
            return String.format("%.0f ns/event (steady %.0f, rewrites and other stalls %.0f; longest block %.0f ms),"
                + " %.1f B/event; cpu some avg10 %s (checksum %d)", total, steady, total - steady,
                sorted[sorted.length - 1] / 1e6, bytes / (double) events, pressure(), d.numbers);
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** The dispatcher's moves: what may go is numbered and published; the oldest in flight is acknowledged. */
    private static final class Driver {
        private final KeyOrder order;
        private final ArrayDeque<PendingEntry> inFlight = new ArrayDeque<>(WINDOW * 2);
        private final ArrayDeque<PendingEntry> released = new ArrayDeque<>(WINDOW * 2);
        private long numbers;

        Driver(KeyOrder order) {
            this.order = order;
        }

        void take(PendingEntry p) {
            admit(p);
            while (inFlight.size() > WINDOW) {
                ack(inFlight.pollFirst());
            }
        }

        void drain() {
            while (!inFlight.isEmpty()) {
                ack(inFlight.pollFirst());
            }
        }

        private void admit(PendingEntry p) {
            if (order.admit(p) == KeyOrder.Admission.GO) {
                numbers += order.sequence(p);
                inFlight.addLast(p);
            }
        }

        private void ack(PendingEntry p) {
            order.settled(p).ifPresent(released::addLast);
            while (!released.isEmpty()) {
                admit(released.pollFirst());
            }
        }
    }

    private static PendingEntry entry(long seq, int object) {
        // a new string each time, its hash not yet worked out, as when decoded from a queue record
        String key = new String(("photos/objects/" + object + ".jpg").toCharArray());
        QueuedEntry e = new QueuedEntry(seq, UUID.randomUUID().toString(), Instant.EPOCH, METADATA, 10,
            EntryAttributes.NONE.withOrderKey(Optional.of(key)));
        return new PendingEntry(e, RETRIES.newState());
    }

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private static String pressure() throws IOException {
        String line = Files.readAllLines(Path.of("/proc/pressure/cpu")).get(0);
        return line.split(" ")[1].substring("avg10=".length());
    }
}

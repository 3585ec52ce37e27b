package dev.jetsink.internal.queue;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link SegmentedQueue} is opened.
 *
 * @param limit              {@code queue_limit}: most live entries the queue holds
 * @param segmentMaxBytes    roll a segment at this size (64 MiB)
 * @param segmentMaxRecords  roll a segment at this many sequence numbers (65 536; tests use less)
 * @param compactAfter       a sealed segment this old with under 1 % live entries is compacted (10 min)
 * @param clock              queued-at times, msg ids and compaction age
 * @param channels           opens the files the queue writes (tests inject failures here)
 */
public record QueueOptions(long limit, long segmentMaxBytes, int segmentMaxRecords, Duration compactAfter,
                           Clock clock, ChannelFactory channels, long heldBytes) {
    public static final long DEFAULT_SEGMENT_BYTES = 64L * 1024 * 1024;
    public static final int DEFAULT_SEGMENT_RECORDS = Segment.MAX_RECORDS;
    public static final Duration DEFAULT_COMPACT_AFTER = Duration.ofMinutes(10);
    /** Payload bytes of just-committed records a queue keeps in memory for its dispatcher ({@link RecentRecords}). */
    public static final long DEFAULT_HELD_BYTES = 4L * 1024 * 1024;

    public QueueOptions {
        if (limit < 1) {
            throw new IllegalArgumentException("queue_limit must be at least 1");
        }
        if (segmentMaxRecords < 1 || segmentMaxRecords > Segment.MAX_RECORDS) {
            throw new IllegalArgumentException("segmentMaxRecords must be within 1.." + Segment.MAX_RECORDS);
        }
        if (segmentMaxBytes < 1024 || segmentMaxBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("segmentMaxBytes must be within 1 KiB..2 GiB");
        }
        Objects.requireNonNull(compactAfter, "compactAfter");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(channels, "channels");
        if (heldBytes < 0) {
            throw new IllegalArgumentException("heldBytes must not be negative");
        }
    }

    /** Production defaults with the given {@code queue_limit}. */
    public static QueueOptions withLimit(long limit) {
        return new QueueOptions(limit, DEFAULT_SEGMENT_BYTES, DEFAULT_SEGMENT_RECORDS, DEFAULT_COMPACT_AFTER,
            Clock.systemUTC(), ChannelFactory.DEFAULT, DEFAULT_HELD_BYTES);
    }

    public QueueOptions withSegmentMaxRecords(int records) {
        return new QueueOptions(limit, segmentMaxBytes, records, compactAfter, clock, channels, heldBytes);
    }

    public QueueOptions withClock(Clock c) {
        return new QueueOptions(limit, segmentMaxBytes, segmentMaxRecords, compactAfter, c, channels, heldBytes);
    }

    public QueueOptions withChannels(ChannelFactory f) {
        return new QueueOptions(limit, segmentMaxBytes, segmentMaxRecords, compactAfter, clock, f, heldBytes);
    }

    /** Holding no records in memory makes every read go to disk (tests of what the disk holds). */
    public QueueOptions withHeldBytes(long bytes) {
        return new QueueOptions(limit, segmentMaxBytes, segmentMaxRecords, compactAfter, clock, channels, bytes);
    }
}

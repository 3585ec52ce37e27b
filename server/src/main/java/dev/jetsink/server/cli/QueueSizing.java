package dev.jetsink.server.cli;

/**
 * {@code queue_limit} for an outage the target must ride out without rejecting events
 * (OPERATIONS.md section 5): peak events per second × outage seconds, then headroom above it
 * (DESIGN.md "Operator tools"); jetsink suggests a quarter more, so a peak a little above the
 * estimate still fits.
 *
 * @param peakRate   peak events per second the target receives
 * @param outageSecs longest broker outage to survive, in seconds
 */
public record QueueSizing(double peakRate, long outageSecs) {

    /** Headroom suggested above the computed figure, in percent. */
    static final int HEADROOM_PERCENT = 25;
    /**
     * On-disk bytes a queue entry takes beyond its payload, as measured on a real queue holding a
     * MinIO put's names (QueueSizingTest): 44 B of record framing and fixed fields
     * ({@code RecordCodec}), a 36-character msg id, the bucket, object key, event name and content
     * type.
     */
    static final int ENTRY_OVERHEAD_BYTES = 130;

    public QueueSizing {
        if (!(peakRate > 0) || Double.isInfinite(peakRate)) {
            throw new IllegalArgumentException("--peak-rate must be a positive number of events per second");
        }
        if (outageSecs <= 0) {
            throw new IllegalArgumentException("--outage-secs must be a positive number of seconds");
        }
    }

    /** Entries queued during the outage at the peak rate, rounded up. */
    long entries() {
        return (long) Math.ceil(peakRate * outageSecs);
    }

    /** {@link #entries()} plus the suggested headroom, rounded up. */
    long suggestedLimit() {
        return (long) Math.ceil(entries() * (100 + HEADROOM_PERCENT) / 100.0);
    }

    /** Disk the suggested limit needs when events average {@code payloadBytes}. */
    long diskBytes(long payloadBytes) {
        return suggestedLimit() * (payloadBytes + ENTRY_OVERHEAD_BYTES);
    }
}

package dev.jetsink.internal.targets;

import dev.jetsink.lifecycle.StreamVerdict;
import dev.jetsink.internal.failed.FailedEventStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status view: samples every target once a second, remembers since when
 * each is in its {@link TargetState}, keeps five minutes of counters for events in and out per
 * second, and logs a stall at WARN once when it starts and once when it ends. {@code /health}
 * keeps its meaning (can the target take events?); this says what is actually happening.
 */
public final class StatusBoard {

    private static final Logger log = LoggerFactory.getLogger(StatusBoard.class);
    /** Samples kept: one a second for five minutes, plus the one that closes the window. */
    private static final int HISTORY = 301;

    /** Events per second over the last 10 s and 5 min (over what history there is, when shorter). */
    public record Rates(double in10s, double in5m, double out10s, double out5m) {
    }

    /**
     * One target's line of {@code GET /status}.
     *
     * @param verdict   {@code PASS}, {@code UNSET} or {@code FAIL} (a live validation failed since
     *                  the last pass); {@code none} for a Core target
     * @param oldestAge age of the oldest queued entry, when any
     */
    public record TargetStatus(String kind, String id, String target, TargetState state, Instant since, StreamVerdict verdict,
                               Optional<String> connectedServer, long queueLength, Optional<Duration> oldestAge,
                               Rates rates, Optional<TargetCounters.LastError> lastError, int failedStoreLength,
                               long duplicateAcks) {
    }

    private final Supplier<List<NatsTarget>> targets;
    private final Clock clock;
    private final Map<NatsTarget, Track> tracks = new HashMap<>();

    public StatusBoard(Supplier<List<NatsTarget>> targets, Clock clock) {
        this.targets = targets;
        this.clock = clock;
    }

    private static final class Track {
        TargetState state;
        Instant since;
        final long[] at = new long[HISTORY];
        final long[] in = new long[HISTORY];
        final long[] out = new long[HISTORY];
        int next;
        int filled;

        void add(long nowMs, long accepted, long resolved) {
            at[next] = nowMs;
            in[next] = accepted;
            out[next] = resolved;
            next = (next + 1) % HISTORY;
            filled = Math.min(HISTORY, filled + 1);
        }

        /** Per-second rate of {@code series} over up to {@code seconds}, from the newest sample back. */
        double rate(long[] series, int seconds) {
            if (filled < 2) {
                return 0;
            }
            int newest = (next - 1 + HISTORY) % HISTORY;
            int back = Math.min(seconds, filled - 1);
            int oldest = (newest - back + HISTORY) % HISTORY;
            double span = (at[newest] - at[oldest]) / 1000.0;
            return span <= 0 ? 0 : Math.max(0, series[newest] - series[oldest]) / span;
        }
    }

    /** Takes one sample of every target: its state (logging a stall's start and end) and its counters. */
    public synchronized void sample() {
        long now = clock.millis();
        List<NatsTarget> current = targets.get();
        tracks.keySet().retainAll(current);
        for (NatsTarget t : current) {
            TargetState state = t.state();
            Track track = tracks.get(t);
            if (track == null) {
                track = new Track();
                track.state = state;
                track.since = Instant.ofEpochMilli(now);
                // every counter starts at 0 with the target: that is the rates' first sample
                if (t.counters().startedMillis() < now) {
                    track.add(t.counters().startedMillis(), 0, 0);
                }
                tracks.put(t, track);
                if (state == TargetState.STALLED) {
                    stallStarted(t);
                }
            } else if (track.state != state) {
                if (state == TargetState.STALLED) {
                    stallStarted(t);
                } else if (track.state == TargetState.STALLED) {
                    log.warn("target stall ended target=\"{}\" state={} stalled_for={}s queue_length={}", t.displayId(),
                        state.label(), Duration.between(track.since, Instant.ofEpochMilli(now)).toSeconds(), t.queueLength());
                }
                track.state = state;
                track.since = Instant.ofEpochMilli(now);
            }
            track.add(now, t.counters().acceptedCount() + t.counters().replayedCount(), t.counters().resolvedCount());
        }
    }

    private static void stallStarted(NatsTarget t) {
        log.warn("target stalled: entries queued and no publish ack for {}s target=\"{}\" queue_length={} last_ack={} "
                + "last_error=\"{}\"", TargetState.STALL_AFTER.toSeconds(), t.displayId(), t.queueLength(),
            t.counters().lastAck().map(Instant::toString).orElse("none"), t.lastError().map(TargetCounters.LastError::text).orElse(""));
    }

    /** Every target's status now; a target not sampled yet is sampled first. */
    public synchronized List<TargetStatus> snapshot() {
        List<NatsTarget> current = targets.get();
        if (!tracks.keySet().containsAll(current)) {
            sample();
        }
        List<TargetStatus> out = new ArrayList<>();
        for (NatsTarget t : current) {
            Track track = tracks.get(t);
            Optional<Duration> oldest = t.oldestAge();
            StreamVerdict verdict = t.verdict();
            out.add(new TargetStatus(t.config().kind().label(), t.config().id(), t.displayId(), track.state, track.since,
                verdict, t.connectedServer(), t.queueLength(), oldest,
                new Rates(track.rate(track.in, 10), track.rate(track.in, 300), track.rate(track.out, 10),
                    track.rate(track.out, 300)),
                t.lastError(), t.failedStore().map(FailedEventStore::count).orElse(0), t.counters().duplicateAckCount()));
        }
        return out;
    }
}

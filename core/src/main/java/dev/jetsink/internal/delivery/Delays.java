package dev.jetsink.internal.delivery;

import dev.jetsink.internal.time.Sleeper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A dispatcher's entries retried alone, each waiting for its own backoff to end, and the one
 * wake-up it needs: at the earliest end (or a probe's), never more than one pending per instant.
 * Owned by the dispatcher's thread; {@code wake} runs on the sleeper's.
 */
final class Delays {
    private final List<PendingEntry> waiting = new ArrayList<>();
    private final Sleeper sleeper;
    private final Runnable wake;
    private Instant sleepingUntil;

    Delays(Sleeper sleeper, Runnable wake) {
        this.sleeper = sleeper;
        this.wake = wake;
    }

    /** {@code p} waits until its {@code notBefore}. */
    void add(PendingEntry p) {
        waiting.add(p);
    }

    /** Hands every entry whose backoff has ended to {@code due}; sleeps until the earliest of the rest. */
    void releaseDue(Instant now, Consumer<PendingEntry> due) {
        Instant earliest = null;
        for (var it = waiting.iterator(); it.hasNext(); ) {
            PendingEntry p = it.next();
            if (!now.isBefore(p.notBefore())) {
                it.remove();
                due.accept(p);
            } else if (earliest == null || p.notBefore().isBefore(earliest)) {
                earliest = p.notBefore();
            }
        }
        if (earliest != null) {
            sleepUntil(earliest, now);
        }
    }

    /** Wakes the dispatcher at {@code at}, unless a wake-up at or before it is already pending. */
    void sleepUntil(Instant at, Instant now) {
        if (sleepingUntil != null && !sleepingUntil.isAfter(at) && sleepingUntil.isAfter(now)) {
            return;
        }
        sleepingUntil = at;
        sleeper.sleep(Duration.between(now, at)).whenComplete((v, t) -> wake.run());
    }
}

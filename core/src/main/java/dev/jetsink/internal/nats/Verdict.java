package dev.jetsink.internal.nats;

import dev.jetsink.lifecycle.ResetReason;
import dev.jetsink.lifecycle.StreamVerdict;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A target's stream-validation verdict (DESIGN.md "Stream validation and verdict"): {@code PASS} or
 * {@code UNSET}. While UNSET every publish attempt and health check first runs a live validation;
 * the first pass sets PASS.
 *
 * <p>Both transitions are atomic and say whether they changed anything, which is how callers do
 * things once per verdict: log the success line only when {@link #pass()} returns true; warn about
 * an unexpected stream, or treat a 10109 sealed rejection as terminal, only when
 * {@link #reset(ResetReason)} returns true (the first such outcome after a PASS).
 */
public final class Verdict {


    private record Snapshot(StreamVerdict state, Optional<ResetReason> lastReset) {
    }

    private final AtomicReference<Snapshot> current =
            new AtomicReference<>(new Snapshot(StreamVerdict.UNSET, Optional.empty()));

    /** A new verdict starts UNSET: nothing has been validated yet. */
    public Verdict() {
    }

    public StreamVerdict state() {
        return current.get().state();
    }

    public boolean isPass() {
        return state() == StreamVerdict.PASS;
    }

    /** The reason of the latest reset, if there was one. */
    public Optional<ResetReason> lastResetReason() {
        return current.get().lastReset();
    }

    /** Sets PASS; true if the verdict was UNSET (so the caller logs the success line). */
    public boolean pass() {
        while (true) {
            Snapshot now = current.get();
            if (now.state() == StreamVerdict.PASS) {
                return false;
            }
            if (current.compareAndSet(now, new Snapshot(StreamVerdict.PASS, now.lastReset()))) {
                return true;
            }
        }
    }

    /** Sets UNSET; true if the verdict was PASS (this is the first reset of that PASS period). */
    public boolean reset(ResetReason reason) {
        while (true) {
            Snapshot now = current.get();
            if (now.state() == StreamVerdict.UNSET) {
                return false;
            }
            if (current.compareAndSet(now, new Snapshot(StreamVerdict.UNSET, Optional.of(reason)))) {
                return true;
            }
        }
    }
}

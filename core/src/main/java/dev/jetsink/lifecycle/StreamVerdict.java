package dev.jetsink.lifecycle;

/**
 * A target's stream-validation verdict (DESIGN.md "Stream validation and verdict"): what
 * {@link dev.jetsink.SinkStatus#verdict()} reports and what a
 * {@link LifecycleEvent.VerdictChanged} says it changed to (PASS or UNSET).
 */
public enum StreamVerdict {
    /** The stream was validated since the last reset: publishes go ahead without re-checking. */
    PASS,
    /** The stream fails a requirement; the target retries its init. */
    FAIL,
    /** Not validated yet, or reset (for instance after a reconnect): the next publish validates first. */
    UNSET,
    /** No stream: the target publishes on NATS Core. */
    NONE
}

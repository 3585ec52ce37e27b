package dev.jetsink.lifecycle;

/**
 * A target's stream-validation verdict (DESIGN.md "Stream validation and verdict"): {@code PASS}
 * once a live validation passed, else {@code UNSET}.
 */
public enum VerdictState {
    /** The stream was validated since the last reset: publishes go ahead without re-checking. */
    PASS,
    /** Not validated yet, or reset: every publish attempt and health check validates first. */
    UNSET
}

/**
 * Time as jetsink's delivery sees it: an injected wall {@link java.time.Clock} and a
 * {@link dev.jetsink.internal.time.Sleeper} for backoff sleeps that a reconnect can end early. Attempt
 * deadlines do not come from here; they use monotonic real time.
 */
package dev.jetsink.internal.time;

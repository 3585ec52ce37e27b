/**
 * What happens to a target's events, as it happens: implement
 * {@link dev.jetsink.lifecycle.LifecycleListener} and pass it to
 * {@link dev.jetsink.SinkBuilder#listener} to hear of deliveries, failed-store records, retries,
 * connection changes, stream verdicts and failed stream validations
 * ({@link dev.jetsink.lifecycle.LifecycleEvent}). A publish failure is an
 * {@link dev.jetsink.lifecycle.Outcome} in a fixed vocabulary, never raw server text.
 */
package dev.jetsink.lifecycle;

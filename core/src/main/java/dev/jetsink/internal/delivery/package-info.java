/**
 * Delivery: one {@code Dispatcher} per target reading its queue oldest first, the publish window and
 * stream-concurrency permits, the retry schedule every entry follows, and the outcome handling that
 * resolves an entry, retries it or moves it to the failed store (DESIGN.md "Delivery").
 */
package dev.jetsink.internal.delivery;

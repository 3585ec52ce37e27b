/**
 * Targets: the retry schedule every entry follows (§5.4), the lifecycle events a target publishes
 * (§6), and (to come) the dispatcher and failed-events store.
 */
package dev.jetsink.internal.target;

/**
 * Targets: one {@code NatsTarget} per configured target with its dispatcher, the retry schedule
 * every entry follows, the lifecycle events it publishes and its failed-events store
 * (DESIGN.md "Delivery", "Failed-events store").
 */
package dev.jetsink.internal.target;

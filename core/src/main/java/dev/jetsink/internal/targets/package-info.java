/**
 * Targets: one {@code NatsTarget} per configured target coordinating its parts — the
 * {@code Intake} every event enters by, its start and init retries, its counters, health and state
 * — and {@code Targets}, all targets of one kind fed together (DESIGN.md "The flow of an event
 * through packages").
 */
package dev.jetsink.internal.targets;

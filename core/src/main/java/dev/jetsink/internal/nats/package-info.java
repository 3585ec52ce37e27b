/**
 * Everything jetsink knows about NATS as pure logic: how a publish outcome classifies (§7), what a
 * stream must satisfy (§6), the verdict that caches a passing validation, and the duplicate-window
 * formula.
 */
package dev.jetsink.internal.nats;

/**
 * jetsink-core: delivers object-storage events to NATS without losing them. Packages follow an
 * event: {@code config} → {@code event} → {@code queue} → {@code nats} → {@code target} →
 * {@code metrics}.
 */
package dev.jetsink;

/**
 * jetsink-core: delivers object-storage events to NATS without losing them. Start at
 * {@link dev.jetsink.Jetsink}: build a {@link dev.jetsink.Sink}, send events, and get a
 * {@link dev.jetsink.Receipt} once each is durable in the local queue and a
 * {@link dev.jetsink.Delivery} once the stream holds it. Everything under
 * {@code dev.jetsink.internal} is implementation, not API.
 */
package dev.jetsink;

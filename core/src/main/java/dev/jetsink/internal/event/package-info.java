/**
 * Events in, payloads out (DESIGN.md "Events"): a request body or an embedding store's values
 * become {@link dev.jetsink.internal.event.OutboundEvent}s whose payload is the exact envelope NATS
 * consumers will receive.
 *
 * <ul>
 *   <li>{@link dev.jetsink.internal.event.EventParser} — body bytes to events, all or nothing, with
 *       located {@link dev.jetsink.event.MalformedEventException}s;</li>
 *   <li>{@link dev.jetsink.internal.event.Envelopes} — one record or entry to its byte-stable envelope;</li>
 *   <li>{@link dev.jetsink.internal.event.EventAccess} — the public event types' trees without a copy.</li>
 * </ul>
 * The event values themselves ({@link dev.jetsink.event.S3EventRecord},
 * {@link dev.jetsink.event.AuditEntry}) are public API in {@code dev.jetsink.event}.
 */
package dev.jetsink.internal.event;

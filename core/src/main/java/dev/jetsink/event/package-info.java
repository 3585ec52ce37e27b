/**
 * Events in, payloads out (SPEC §3): a request body or an embedding store's values become
 * {@link dev.jetsink.event.OutboundEvent}s whose payload is the exact envelope NATS consumers
 * will receive.
 *
 * <ul>
 *   <li>{@link dev.jetsink.event.EventParser} — body bytes to events, all or nothing, with
 *       located {@link dev.jetsink.event.MalformedEventException}s;</li>
 *   <li>{@link dev.jetsink.event.S3EventRecord}, {@link dev.jetsink.event.AuditEntry} — the
 *       store's JSON kept whole, typed accessors for what jetsink reads, builders for stores
 *       without JSON;</li>
 *   <li>{@link dev.jetsink.event.Envelopes} — one record or entry to its byte-stable envelope.</li>
 * </ul>
 */
package dev.jetsink.event;

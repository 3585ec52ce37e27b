/**
 * The events a sink sends: {@link dev.jetsink.event.S3EventRecord} (one S3 bucket notification
 * record) and {@link dev.jetsink.event.AuditEntry} (one audit log entry). Each keeps the JSON a
 * store sent whole, unknown fields included, and offers typed accessors for the fields jetsink
 * reads and a builder for stores that have no JSON at hand. An entry or record that lacks what
 * jetsink needs is a {@link dev.jetsink.event.MalformedEventException}.
 */
package dev.jetsink.event;

/**
 * Publishing: a target's connection, the Core and JetStream paths that put an entry on NATS, the
 * stream check and its verdict, the headers and subjects of a message, and optional tracing spans
 * (DESIGN.md "Delivery", "Stream validation and verdict").
 */
package dev.jetsink.internal.publish;

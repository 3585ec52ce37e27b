/**
 * The webhook endpoints: a chain of small handlers, each one check with its own answer (target
 * route, method, sender token, refusal before the body), ending in reading the body and queueing
 * its events on every addressed target all or nothing (DESIGN.md "Daemon").
 */
package dev.jetsink.server.ingest;

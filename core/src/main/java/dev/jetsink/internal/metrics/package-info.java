/** The metrics of DESIGN.md "Metrics", bound to a caller's Micrometer registry. */
package dev.jetsink.internal.metrics;

/** The metrics of SPEC §9, bound to a caller's Micrometer registry. */
package dev.jetsink.internal.metrics;

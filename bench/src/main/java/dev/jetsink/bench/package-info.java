/**
 * Benchmarks: jetsink against the baseline peer and raw jnats, reported as ratios
 * (docs/BENCHMARKS.md).
 */
package dev.jetsink.bench;

/** Benchmarks: jetsink against the baseline peer and raw jnats, reported as ratios (SPEC §13). */
package dev.jetsink.bench;

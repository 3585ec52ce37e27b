/**
 * The failed-events store: the events a target rejected for good, kept as one JSON file each,
 * bounded by count and age, and what an operator does with them — replay or purge
 * (DESIGN.md "Failed-events store").
 */
package dev.jetsink.internal.failed;

/**
 * Everything jetsink knows about NATS as pure logic: how a publish outcome classifies, what a
 * stream must satisfy, the verdict that caches a passing validation, and the duplicate-window
 * formula (DESIGN.md "Classification", "Stream validation and verdict").
 */
package dev.jetsink.internal.nats;

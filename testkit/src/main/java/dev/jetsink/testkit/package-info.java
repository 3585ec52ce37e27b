/** Real nats-server fixtures for tests (SPEC §12). */
package dev.jetsink.testkit;

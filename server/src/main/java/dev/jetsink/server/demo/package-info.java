/**
 * The demo command: a throw-away JetStream server and stream, a daemon with one notify and one
 * audit target, a burst of webhook requests while the broker is killed and restarted, and a count
 * of what reached the stream (DESIGN.md "Daemon").
 */
package dev.jetsink.server.demo;

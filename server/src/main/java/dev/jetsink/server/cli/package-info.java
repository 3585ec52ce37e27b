/**
 * The command line: {@code Main} and its root command, {@code serve} which runs the daemon, and the
 * operator commands that check configuration, plan and tail streams, and inspect queues and failed
 * events (DESIGN.md "Daemon", "Operator tools").
 */
package dev.jetsink.server.cli;

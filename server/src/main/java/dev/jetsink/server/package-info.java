/**
 * The daemon process: {@code Daemon} is the one place a running daemon is put together (targets,
 * metrics, the HTTP handler tree) and taken apart again if its start fails; {@code ExitCode} holds
 * the process exit codes and {@code LogSetup} the log configuration. The subpackages adapt HTTP and
 * the command line to jetsink-core and import each other one way only (DESIGN.md "Daemon").
 */
package dev.jetsink.server;

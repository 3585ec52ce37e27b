/**
 * The Jetty front every request passes through: the intake gate, connection and request limits,
 * request deadlines, TLS, the bearer-token check, body reading against a shared byte budget, the
 * small handlers for {@code /}, {@code /metrics}, {@code /health}, {@code /ready}, {@code /live}
 * and {@code /status}, and the routing that hands the rest to one handler per route family
 * (DESIGN.md "Daemon").
 */
package dev.jetsink.server.http;

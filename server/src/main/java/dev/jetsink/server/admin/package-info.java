/**
 * The admin API: listing, applying, resetting and replacing targets at run time, replaying and
 * purging failed events, the targets applied through it persisted in the data directory, and the
 * reload that applies a changed configuration (DESIGN.md "Admin API").
 */
package dev.jetsink.server.admin;

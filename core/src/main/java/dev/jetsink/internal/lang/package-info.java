/** Helpers every other package may use: unwrapping the failures futures report. Uses no jetsink package. */
package dev.jetsink.internal.lang;

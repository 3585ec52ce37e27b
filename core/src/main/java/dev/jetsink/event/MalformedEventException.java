package dev.jetsink.event;

/**
 * A request body or event value that jetsink cannot queue. The message names the record, entry
 * or line and the field at fault (for example {@code record 2: s3.bucket.name is required}) and
 * is safe to return to an HTTP client: it never quotes body content, so a header value that
 * happened to sit next to a syntax error cannot leak into logs.
 *
 * <p>No stack trace is captured: malformed input is an expected outcome at the ingest, not a
 * programming error, and a busy sender must not make jetsink pay for stack walks.
 */
public final class MalformedEventException extends Exception {
    private static final long serialVersionUID = 1L;

    /**
     * A problem described by {@code message}, which never quotes the body.
     *
     * @param message what is wrong and where
     */
    public MalformedEventException(String message) {
        super(message, null, false, false);
    }

    /**
     * The same problem located inside a larger body, e.g. {@code within("record 2")}.
     *
     * @param where the location, e.g. {@code record 2}
     * @return a new exception with the location in front
     */
    public MalformedEventException within(String where) {
        return new MalformedEventException(where + ": " + getMessage());
    }
}

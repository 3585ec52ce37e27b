package dev.jetsink.internal.nats;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A TLS file (CA bundle, client certificate or key) could not be read or parsed. The message names
 * the file and what was wrong with it, never the file's content: a key must not reach a log even
 * when it is malformed. It is a connection failure, not a configuration error
 * (DESIGN.md "NATS connection"): the target keeps queueing and retries.
 */
public final class TlsMaterialException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    /**
     * @param file    the offending file
     * @param problem what is wrong, in words that contain no file content
     * @param cause   the underlying error; callers pass only errors whose messages carry no key material
     */
    public TlsMaterialException(Path file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
        this.file = file;
    }

    /** The file that could not be used. */
    public Path file() {
        return file;
    }
}

package dev.jetsink.internal.lang;

import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** What failed, beneath the wrappers futures and unchecked I/O put around it. */
public final class Failures {
    private Failures() {
    }

    /**
     * The failure inside {@link CompletionException}, {@link ExecutionException},
     * {@link UncheckedIOException} and bare {@link RuntimeException} wrappers, however deeply nested;
     * {@code failure} itself when it wraps nothing.
     *
     * @param failure a failure, not null
     * @return the innermost wrapped failure
     */
    public static Throwable unwrap(Throwable failure) {
        Throwable t = Objects.requireNonNull(failure, "failure");
        while (t.getCause() != null && t.getCause() != t
                && (t instanceof ExecutionException || t instanceof CompletionException
                || t instanceof UncheckedIOException || t.getClass() == RuntimeException.class)) {
            t = t.getCause();
        }
        return t;
    }
}

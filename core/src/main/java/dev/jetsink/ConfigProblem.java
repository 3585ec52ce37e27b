package dev.jetsink;

import java.util.Objects;

/**
 * One thing wrong (or worth a warning) in the configuration.
 *
 * @param target   who it concerns: a target's display id ({@code notify primary:nats}), a kind
 *                 ({@code notify}), {@code global} or {@code config file}
 * @param variable the variable (or admin key name, or {@code file:line}) that carries the problem
 * @param message  what is wrong; never contains a secret value
 * @param category what sort of problem it is, so a caller may tolerate mistyped or unused keys
 *                 ({@link Category#UNKNOWN_KEY}, {@link Category#UNUSED_KEY}) and still refuse bad values
 */
public record ConfigProblem(String target, String variable, String message, Category category) {

    /** The sorts of problem, so callers can treat mistyped keys differently from bad values. */
    public enum Category {
        /** A value that does not parse or breaks a validation rule (DESIGN.md "Configuration"). */
        VALUE,
        /** A variable under a known prefix that names no known key. */
        UNKNOWN_KEY,
        /** A known key that configures no enabled target. */
        UNUSED_KEY,
        /** The config file cannot be read or has a malformed line. */
        FILE,
        /** A warning: the configuration runs, but something deserves a look. */
        WARNING,
        /**
         * A TLS, CA or {@code .creds} file a target names is missing or unreadable. The target
         * starts and retries its connection, since the file may still appear (a secret mounted or
         * a certificate issued after start), so it is filed with the warnings; the target
         * delivers nothing until it does.
         */
        MISSING_FILE
    }

    /**
     * Checks that every component is present.
     *
     * @param target   the target the problem belongs to, e.g. {@code notify primary:nats}
     * @param variable the variable (or file line) at fault
     * @param message  what is wrong, for a person
     * @param category the kind of problem
     */
    public ConfigProblem {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(variable, "variable");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(category, "category");
    }

    /**
     * An invalid value.
     *
     * @param target   the target
     * @param variable the variable
     * @param message  what is wrong
     * @return a {@link Category#VALUE} problem
     */
    public static ConfigProblem value(String target, String variable, String message) {
        return new ConfigProblem(target, variable, message, Category.VALUE);
    }

    /**
     * A warning that does not stop the configuration.
     *
     * @param target   the target
     * @param variable the variable
     * @param message  what deserves a look
     * @return a {@link Category#WARNING}
     */
    public static ConfigProblem warning(String target, String variable, String message) {
        return new ConfigProblem(target, variable, message, Category.WARNING);
    }

    /**
     * One line for logs and the CLI: {@code <target>: <variable>: <message>}.
     *
     * @return the line
     */
    public String describe() {
        if (message.contains(variable)) {
            return target + ": " + message;
        }
        return target + ": " + variable + ": " + message;
    }

    @Override
    public String toString() {
        return describe();
    }
}

package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import dev.jetsink.InvalidConfigException;
import java.util.List;
import java.util.Objects;

/**
 * What {@link ConfigLoader#load} found: the configuration it could build and every error.
 * With errors, {@code config} holds only the targets that validated (invalid globals fall back to
 * their defaults), so {@code check-config} can still print them; run nothing from it.
 *
 * @param config        the resolved configuration (complete only when {@code errors} is empty)
 * @param errors        every error, each naming its target and variable
 * @param checkFailures warnings (also in {@code config.warnings()}) that the daemon runs with but
 *                      {@code check-config} fails: a variable whose prefix is a typo of one jetsink
 *                      reads, and a second target on the same stream and subject
 */
public record LoadedConfig(JetsinkConfig config, List<ConfigProblem> errors, List<ConfigProblem> checkFailures) {
    public LoadedConfig {
        Objects.requireNonNull(config, "config");
        errors = List.copyOf(errors);
        checkFailures = List.copyOf(checkFailures);
    }

    /** A configuration with no warning that {@code check-config} fails. */
    public LoadedConfig(JetsinkConfig config, List<ConfigProblem> errors) {
        this(config, errors, List.of());
    }

    /** True when there is no error at all. */
    public boolean valid() {
        return errors.isEmpty();
    }

    /** Errors other than unknown or unused keys, i.e. those {@code --allow-unknown-keys} cannot waive. */
    public List<ConfigProblem> valueErrors() {
        return errors.stream().filter(p -> p.category() != ConfigProblem.Category.UNKNOWN_KEY
            && p.category() != ConfigProblem.Category.UNUSED_KEY).toList();
    }

    /**
     * The configuration to run, or every error. With {@code allowUnknownKeys} (serve's
     * {@code --allow-unknown-keys}) unknown and unused keys do not block; the caller logs them.
     */
    public JetsinkConfig require(boolean allowUnknownKeys) throws InvalidConfigException {
        List<ConfigProblem> blocking = allowUnknownKeys ? valueErrors() : errors;
        if (!blocking.isEmpty()) {
            throw new InvalidConfigException(blocking);
        }
        return config;
    }
}

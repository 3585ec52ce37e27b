package dev.jetsink.internal.config;

import dev.jetsink.ConfigProblem;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of validating one target: the typed config when it has no errors, plus every error
 * and warning found.
 *
 * @param target   the validated target, empty when {@code errors} is not empty
 * @param enabled  the target's {@code enable} value (false when unset or invalid)
 * @param errors   every value error, each with target and variable
 * @param warnings unreadable TLS or credentials files and other non-fatal findings
 */
public record TargetValidation(Optional<TargetConfig> target, boolean enabled,
                               List<ConfigProblem> errors, List<ConfigProblem> warnings) {
    public TargetValidation {
        errors = List.copyOf(errors);
        warnings = List.copyOf(warnings);
    }

    /** True when there is no error. */
    public boolean valid() {
        return errors.isEmpty();
    }
}

package dev.jetsink;

import java.util.List;
import java.util.stream.Collectors;

/** The configuration has errors; carries every one of them, not just the first. */
public final class InvalidConfigException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient List<ConfigProblem> problems;

    /**
     * An exception listing {@code problems} in its message, one per line.
     *
     * @param problems every error found
     */
    public InvalidConfigException(List<ConfigProblem> problems) {
        super(problems.size() + " configuration error(s):\n  "
            + problems.stream().map(ConfigProblem::describe).collect(Collectors.joining("\n  ")));
        this.problems = List.copyOf(problems);
    }

    /**
     * Every problem found, in the order they were found.
     *
     * @return the problems, unmodifiable
     */
    public List<ConfigProblem> problems() {
        return problems;
    }
}
